/**
 * Where an answer's text sits, as `tag.class.class > …` paths under the chat's thread: one per
 * face (family, size, weight, style) an answer can use. The first time a page shows a face the
 * browser looks it up, family by family down the font stack; in Chromium on Linux each is a
 * round trip to the browser process (about 1 ms here), and the first frame of the first answer
 * looked up some fifteen at once (a 20 ms frame). The chat's own text uses two.
 *
 * Kept true to the components and the stylesheet by a Chromium test: every face a rich answer
 * shows is one of these. A face left out costs only its lookup when it first shows.
 */
const ANSWER = 'div.ms-chat__turns>article.ms-message.ms-message--assistant';
const MARKDOWN = `${ANSWER}>div.ms-text>div.ms-markdown>div.ms-markdown__group`;
const CODE = `${MARKDOWN}>div.ms-code`;
// Spans in place of the buttons: the same classes give the same face, and the specimen holds
// nothing a keyboard or a screen reader could reach.
const TOOL_ROW = `${ANSWER}>div.ms-tool>span.ms-tool__row`;
export const ANSWER_FACES: readonly string[] = [
  `${MARKDOWN}>p`,
  `${MARKDOWN}>p>em`,
  `${MARKDOWN}>p>strong`,
  `${MARKDOWN}>p>strong>em`,
  `${MARKDOWN}>p>code`,
  `${MARKDOWN}>h1`,
  `${MARKDOWN}>h1>code`,
  `${MARKDOWN}>h2`,
  `${MARKDOWN}>h2>em`,
  `${MARKDOWN}>h2>strong`,
  `${MARKDOWN}>h2>code`,
  `${MARKDOWN}>h3`,
  `${MARKDOWN}>h3>code`,
  `${MARKDOWN}>h4`,
  `${MARKDOWN}>blockquote>p`,
  `${MARKDOWN}>ul>li`,
  `${MARKDOWN}>p>span.ms-cite-group>span.ms-cite>a.ms-cite__marker`,
  `${MARKDOWN}>table>thead>tr>th`,
  `${MARKDOWN}>table>tbody>tr>td`,
  `${MARKDOWN}>table>tbody>tr>td>code`,
  `${CODE}>div.ms-code__header>span.ms-code__lang`,
  `${CODE}>div.ms-code__header>span.ms-code__actions>span.ms-copy>span.ms-copy__button`,
  `${CODE}>pre.ms-code__pre>code.ms-code__code>span.ms-code__group>span.ms-code__line`,
  `${ANSWER}>div.ms-thinking>div.ms-thinking__panel>p.ms-thinking__text`,
  `${TOOL_ROW}>span.ms-tool__title>span.ms-tool__name`,
  `${TOOL_ROW}>span.ms-tool__summary`,
  `${TOOL_ROW}>span.ms-tool__badge`,
  `${ANSWER}>div.ms-message__footer>div.ms-actions>span.ms-actions__end>p.ms-usage`,
];

/** Out of the layout and out of sight; a pixel, so it never widens what holds the chat. */
const HIDDEN =
  'position:absolute;top:0;left:0;width:1px;height:1px;overflow:hidden;white-space:nowrap;contain:strict;visibility:hidden;pointer-events:none';

/**
 * The paths as elements: a thread of answers holding one text per path, hidden and out of the
 * layout. It carries the kit's classes, so it only ever stands in the page for a moment.
 */
export function buildFaceSpecimen(document: Document): HTMLElement {
  const thread = document.createElement('div');
  thread.className = 'ms-chat__thread';
  thread.style.cssText = HIDDEN;
  for (const path of ANSWER_FACES) {
    let parent: HTMLElement = thread;
    for (const step of path.split('>')) {
      const [tag, ...classes] = step.split('.');
      const element = document.createElement(tag as string);
      if (classes.length > 0) element.className = classes.join(' ');
      parent.append(element);
      parent = element;
    }
    parent.textContent = 'Ag';
  }
  return thread;
}

/** A face as CSS declarations: what the browser looks a font up by. */
export function faceOf(style: CSSStyleDeclaration): string {
  return `font-family:${style.fontFamily};font-size:${style.fontSize};font-weight:${style.fontWeight};font-style:${style.fontStyle}`;
}

/**
 * Looks the faces an answer uses up now, and holds them: the specimen is put into `chat` (its
 * styles and theme apply) for as long as it takes to read its faces; then one hidden text per
 * face, with the face written out and none of the kit's classes (nothing that queries the chat
 * finds it), is laid out. Returns that holder; the faces stay looked up while it is in the
 * page (the browser lets go of a face no element uses).
 */
export function holdAnswerFaces(chat: HTMLElement): HTMLElement | null {
  const document = chat.ownerDocument;
  const view = document.defaultView;
  if (view === null) return null;
  const specimen = buildFaceSpecimen(document);
  chat.append(specimen);
  const faces = new Set<string>();
  for (const element of specimen.querySelectorAll('*')) {
    if (element.childElementCount === 0) faces.add(faceOf(view.getComputedStyle(element)));
  }
  specimen.remove();
  const holder = document.createElement('div');
  holder.setAttribute('data-ms-faces', '');
  holder.setAttribute('aria-hidden', 'true');
  holder.style.cssText = HIDDEN;
  for (const face of faces) {
    const text = document.createElement('span');
    text.style.cssText = face;
    text.textContent = 'Ag';
    holder.append(text);
  }
  chat.append(holder);
  // Layout shapes the text, which looks the faces up.
  void holder.offsetWidth;
  return holder;
}
