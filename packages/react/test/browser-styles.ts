import { afterAll, beforeAll } from 'vitest';
import content from '../src/content.css?raw';
import conversation from '../src/conversation.css?raw';
import styles from '../src/styles.css?raw';

/**
 * The default stylesheet on the test page, for this file's tests (Chromium runs). Its
 * `@import`s are inlined: a `<style>` element would resolve them against the test page.
 */
export function withDefaultStyles(): void {
  let sheet: HTMLStyleElement | undefined;
  beforeAll(() => {
    sheet = document.createElement('style');
    // In the order styles.css imports them, then its own rules.
    sheet.textContent = `${content}\n${conversation}\n${styles.replace(/^@import [^;]+;$/gm, '')}`;
    document.head.append(sheet);
  });
  afterAll(() => sheet?.remove());
}
