import type { AlertMessage } from '../domain/index.js';
import { actionUrl, displayInfo } from './alert-display.js';
import { cellText, cutMarker, cutText } from './text-limits.js';

/** Slack's Block Kit limits (docs.slack.dev, chat.postMessage and block reference). */
export const chatLimits = {
  blocks: 50,
  headerText: 150,
  sectionText: 3000,
  fieldsPerSection: 10,
  fieldText: 2000,
  buttonText: 75,
  buttonUrl: 3000,
  buttonsPerBlock: 25,
  contextText: 2000,
  fallbackText: 3000,
  /** Rows in the code block of an alert whose rule has no template. */
  previewRows: 5,
} as const;

export type Block = Readonly<Record<string, unknown>>;

/** The chat.postMessage arguments besides the channel: the notification text and the blocks. */
export interface ChatMessage {
  readonly text: string;
  readonly blocks: readonly Block[];
}

/**
 * The default chat layout (detections.md E11): a header with severity and rule name, the
 * description, one field per info item, a short code block of the first rows when the rule has no
 * template, actions as buttons (plain text when not a URL), and the window in a context line.
 * Every text is cut to its Block Kit limit with the cut marker.
 */
export function chatMessage(alert: AlertMessage): ChatMessage {
  const blocks: Block[] = [{ type: 'header', text: { type: 'plain_text', text: cutText(`[${alert.severity}] ${alert.name}`, chatLimits.headerText), emoji: true } }];
  if (alert.description.trim() !== '') blocks.push(section(escapeMrkdwn(alert.description)));
  const info = displayInfo(alert);
  for (let i = 0; i < info.length; i += chatLimits.fieldsPerSection) {
    const fields = info.slice(i, i + chatLimits.fieldsPerSection).map((item) => ({
      type: 'mrkdwn',
      text: cutText(`*${escapeMrkdwn(item.label)}*\n${escapeMrkdwn(item.value)}`, chatLimits.fieldText),
    }));
    blocks.push({ type: 'section', fields });
  }
  if (!alert.templated && alert.resultsTable.rows.length > 0) blocks.push(rowsBlock(alert));
  const buttons: Block[] = [];
  for (const action of alert.actions) {
    const url = actionUrl(action.value);
    if (url !== null && url.length <= chatLimits.buttonUrl) {
      buttons.push({ type: 'button', text: { type: 'plain_text', text: cutText(action.label, chatLimits.buttonText), emoji: true }, url });
    } else {
      blocks.push(section(`*${escapeMrkdwn(action.label)}*: ${escapeMrkdwn(action.value)}`));
    }
  }
  for (let i = 0; i < buttons.length; i += chatLimits.buttonsPerBlock) blocks.push({ type: 'actions', elements: buttons.slice(i, i + chatLimits.buttonsPerBlock) });
  const rows = alert.resultsTable.totalRowCount;
  const context = `Window ${alert.window.start} – ${alert.window.end} · ${rows} row${rows === 1 ? '' : 's'}${alert.tags.length > 0 ? ` · ${alert.tags.join(', ')}` : ''}`;
  const contextBlock: Block = { type: 'context', elements: [{ type: 'mrkdwn', text: cutText(escapeMrkdwn(context), chatLimits.contextText) }] };
  // The context line is kept whatever else is cut: it says which window the alert is about.
  const kept = blocks.length + 1 > chatLimits.blocks ? [...blocks.slice(0, chatLimits.blocks - 2), section(cutMarker)] : blocks;
  return { text: cutText(`[${alert.severity}] ${alert.name}`, chatLimits.fallbackText), blocks: [...kept, contextBlock] };
}

function section(text: string): Block {
  return { type: 'section', text: { type: 'mrkdwn', text: cutText(text, chatLimits.sectionText) } };
}

/** The first rows as an aligned table inside a code block, cut inside the fence so the fence survives. */
function rowsBlock(alert: AlertMessage): Block {
  const { columns, rows, totalRowCount } = alert.resultsTable;
  const shown = rows.slice(0, chatLimits.previewRows);
  const lines = [columns.join(' | '), ...shown.map((row) => columns.map((c) => cellText(row[c]).replace(/\s+/g, ' ')).join(' | '))];
  if (totalRowCount > shown.length) lines.push(`… ${totalRowCount - shown.length} more`);
  const fence = '```';
  const body = cutText(escapeMrkdwn(lines.join('\n')).replaceAll(fence, "'''"), chatLimits.sectionText - 2 * fence.length - 2);
  return { type: 'section', text: { type: 'mrkdwn', text: `${fence}\n${body}\n${fence}` } };
}

/** Slack mrkdwn needs `&`, `<` and `>` escaped; everything else is shown as written. */
function escapeMrkdwn(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
