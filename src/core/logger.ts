/**
 * The structured logger every module receives. It is pino's call shape, so the composition root
 * passes a pino instance; modules never import pino themselves. Never log secrets: api keys,
 * integration keys and webhook URLs with credentials are redacted at the root as a second line
 * of defence, not as permission to log them.
 */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  child(bindings: Record<string, unknown>): Logger;
}

/** A logger that drops everything, for tests and library use. */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};
