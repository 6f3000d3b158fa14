import type { ComponentChildren } from 'preact';
import { onLinkClick } from './navigation.js';

/** A link to another console page, followed without reloading the console. */
export function Link(props: { href: string; class?: string; children: ComponentChildren; 'aria-current'?: 'page' | undefined }) {
  return (
    <a href={props.href} class={props.class} aria-current={props['aria-current']} onClick={(e) => onLinkClick(e, props.href)}>
      {props.children}
    </a>
  );
}
