/**
 * The API's limits on files, checked before anything is read or sent: every refusal names
 * the file and the limit it broke.
 */
import { describe, expect, it } from 'vitest';
import {
  ATTACHMENT_LIMITS,
  AttachmentError,
  attachmentMediaType,
  attachmentsOf,
  checkAttachment,
  readAttachment,
} from '../../src/attachments.js';
import type { AttachmentMediaType } from '../../src/index.js';
import { createChatStore, type UserTurn } from '../../src/index.js';
import { scriptedFetch, sse, textAnswer } from './support.js';

const MB = 1024 * 1024;

/** A PDF-looking file with `pages` page objects (and the `/Pages` tree, which is no page). */
function pdf(name: string, pages: number): File {
  const objects = Array.from(
    { length: pages },
    (_, i) => `${i + 3} 0 obj << /Type /Page /Parent 2 0 R >> endobj`,
  );
  const text = `%PDF-1.7\n2 0 obj << /Type /Pages /Count ${pages} >> endobj\n${objects.join('\n')}\n%%EOF`;
  return new File([text], name, { type: 'application/pdf' });
}

/** What `readAttachment` refuses `file` with: an `AttachmentError`'s problem and words. */
async function refusalOf(file: File): Promise<{ problem: string; message: string }> {
  const error = await readAttachment(file).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AttachmentError);
  const { problem, message } = error as AttachmentError;
  return { problem, message };
}

describe('attachment limits', () => {
  it('takes PNG, JPEG, GIF and WebP images, PDFs and plain text, by type or by extension', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp']) {
      expect(attachmentMediaType('picture', type)).toBe(type);
    }
    expect(attachmentMediaType('paper', 'application/pdf')).toBe('application/pdf');
    expect(attachmentMediaType('notes', 'text/plain; charset=utf-8')).toBe('text/plain');
    // A browser that knows no type for the file: its extension decides.
    expect(attachmentMediaType('scan.WEBP', '')).toBe('image/webp');
    expect(attachmentMediaType('paper.pdf', 'application/octet-stream')).toBe('application/pdf');
    expect(attachmentMediaType('photo.heic', 'image/heic')).toBeNull();
    expect(attachmentMediaType('sheet.xlsx', '')).toBeNull();
  });

  it('takes text a person would attach (markdown, CSV, JSON, code) as a text document', async () => {
    // Chromium names a .md file text/markdown: the picker offered it, so it must be taken.
    for (const [name, type] of [
      ['notes.md', 'text/markdown'],
      ['table.csv', 'text/csv'],
      ['data.json', 'application/json'],
      ['feed.jsonld', 'application/ld+json'],
      ['config.yaml', 'application/x-yaml'],
      ['page.html', 'text/html'],
      ['main.ts', ''],
      ['types.ts', 'video/mp2t'],
      ['app.tsx', 'application/octet-stream'],
      ['script.py', ''],
      ['README.markdown', ''],
    ]) {
      expect(attachmentMediaType(name as string, type as string), name).toBe('text/plain');
    }
    expect(attachmentMediaType('archive.zip', 'application/zip')).toBeNull();
    expect(attachmentMediaType('program.exe', '')).toBeNull();
    expect(attachmentMediaType('font.woff2', 'font/woff2')).toBeNull();

    const notes = await readAttachment(
      new File(['# Notes\n\nSome *markdown*.'], 'notes.md', { type: 'text/markdown' }),
    );
    expect(notes).toMatchObject({ name: 'notes.md', mediaType: 'text/plain' });
    expect(notes.data).toBe('# Notes\n\nSome *markdown*.');
  });

  it('refuses a binary file named as text, instead of sending replacement characters', async () => {
    for (const bytes of [
      new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0xff, 0xfe]), // invalid UTF-8
      new Uint8Array([0x68, 0x69, 0x00, 0x00, 0x01]), // valid UTF-8 with NUL bytes
    ]) {
      expect(await refusalOf(new File([bytes], 'tool.txt', { type: 'text/plain' }))).toEqual({
        problem: 'type',
        message: 'tool.txt cannot be attached: its content is not text.',
      });
    }
  });

  // An attack review: a JPEG saved as photo.png went out as image/png, the API refused the
  // request ("Image does not match the provided media type"), and every later message of the
  // conversation carried it and was refused too. So did a file that is no image at all.
  it('sends an image as the type its bytes say, and refuses one whose bytes are no image', async () => {
    const signatures: [AttachmentMediaType, number[]][] = [
      ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
      ['image/jpeg', [0xff, 0xd8, 0xff, 0xe0]],
      ['image/gif', [...'GIF89a'].map((c) => c.charCodeAt(0))],
      ['image/webp', [...'RIFF\x10\0\0\0WEBPVP8 '].map((c) => c.charCodeAt(0))],
    ];
    for (const [actual, bytes] of signatures) {
      for (const declared of ['image/png', 'image/jpeg', '']) {
        const file = new File([new Uint8Array([...bytes, 1, 2, 3])], 'photo.png', {
          type: declared,
        });
        expect((await readAttachment(file)).mediaType, `${actual} as ${declared}`).toBe(actual);
      }
    }
    for (const bytes of [[1, 2, 3], [], [...'<svg/>'].map((c) => c.charCodeAt(0))]) {
      const file = new File([new Uint8Array(bytes)], 'shot.png', { type: 'image/png' });
      expect(await refusalOf(file)).toEqual({
        problem: 'type',
        message: 'shot.png cannot be attached: its content is not a PNG, JPEG, GIF or WebP image.',
      });
    }
  });

  it('refuses a file named as a PDF whose content is no PDF', async () => {
    const file = new File(['<html>not a pdf</html>'], 'paper.pdf', { type: 'application/pdf' });
    expect(await refusalOf(file)).toEqual({
      problem: 'type',
      message: 'paper.pdf cannot be attached: its content is not a PDF.',
    });
  });

  it('refuses an image over 5 MB once encoded, naming the file and the limit', () => {
    const limit = (ATTACHMENT_LIMITS.imageBase64Bytes * 3) / 4;
    expect(checkAttachment({ name: 'fits.png', type: 'image/png', size: limit })).toBeNull();
    const refused = checkAttachment({ name: 'big.png', type: 'image/png', size: limit + 1 });
    expect(refused).toBeInstanceOf(AttachmentError);
    expect(refused?.problem).toBe('size');
    expect(refused?.fileName).toBe('big.png');
    expect(refused?.message).toBe(
      'big.png is too large (3.76 MB): an image can be at most 3.75 MB.',
    );
  });

  it('refuses a PDF or a text file that cannot fit a 32 MB request', () => {
    // A PDF grows by a third in base64: 24 MB of file fills the request.
    expect(checkAttachment({ name: 'a.pdf', type: 'application/pdf', size: 24 * MB })).toBeNull();
    const pdfRefused = checkAttachment({ name: 'b.pdf', type: 'application/pdf', size: 25 * MB });
    expect(pdfRefused?.message).toBe('b.pdf is too large (25 MB): a PDF can be at most 24 MB.');
    // Text is sent as it is.
    expect(checkAttachment({ name: 'log.txt', type: 'text/plain', size: 32 * MB })).toBeNull();
    const textRefused = checkAttachment({ name: 'log.txt', type: 'text/plain', size: 33 * MB });
    expect(textRefused?.problem).toBe('size');
    expect(textRefused?.message).toBe(
      'log.txt is too large (33 MB): a text file can be at most 32 MB.',
    );
  });

  it('refuses a PDF of more than 100 pages, counting page objects only', async () => {
    const fits = await readAttachment(pdf('hundred.pdf', ATTACHMENT_LIMITS.pdfPages));
    expect(fits.mediaType).toBe('application/pdf');
    expect(await refusalOf(pdf('long.pdf', 101))).toEqual({
      problem: 'pages',
      message: 'long.pdf has 101 pages: a PDF can have at most 100.',
    });
  });

  it('sends nothing when one file of several is refused, and says which', async () => {
    const { fetch, requests } = scriptedFetch();
    const store = createChatStore({ request: { model: 'claude-opus-5', max_tokens: 64 }, fetch });
    const ok = new File(['fine'], 'ok.txt', { type: 'text/plain' });
    await store.getState().send('Read these', { attachments: [ok, pdf('long.pdf', 101)] });
    expect(requests).toHaveLength(0);
    expect(store.getState().turns).toEqual([]);
    expect(store.getState().error?.type).toBe('attachment_error');
    expect(store.getState().error?.message).toContain('long.pdf has 101 pages');
  });

  // An attack review: two 20 MB text files, each within the limit, went out as one 40 MB
  // request, and stayed in the conversation for every later request.
  it('sends nothing when files within the limit one by one are over it together', async () => {
    const { fetch, requests } = scriptedFetch();
    const store = createChatStore({ request: { model: 'claude-opus-5', max_tokens: 64 }, fetch });
    const big = 'a'.repeat(20 * MB);
    const files = ['one.txt', 'two.txt'].map(
      (name) => new File([big], name, { type: 'text/plain' }),
    );
    await store.getState().send('Compare these', { attachments: files });
    expect(requests).toHaveLength(0);
    expect(store.getState().turns).toEqual([]);
    expect(store.getState().error?.type).toBe('attachment_error');
    expect(store.getState().error?.message).toBe(
      'These files are too large together: a message can carry at most 32 MB (these come to 40 MB as sent). Send some in another message.',
    );
  });
});

describe('a sent message’s attachments', () => {
  // A PNG's signature and two more bytes: 10 bytes, which base64 pads with "==".
  const photo = () =>
    new File(
      [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2])],
      'photo.png',
      {
        type: 'image/png',
      },
    );
  const notes = () => new File(['Some notes.'], 'notes.txt', { type: 'text/plain' });
  const userTurns = (store: ReturnType<typeof createChatStore>) =>
    store.getState().turns.filter((turn): turn is UserTurn => turn.role === 'user');

  it('keeps each file’s name and exact size, an image’s too (its block has no title)', async () => {
    const { fetch } = scriptedFetch(() => sse(textAnswer('Seen.')));
    const store = createChatStore({ request: { model: 'claude-opus-5', max_tokens: 64 }, fetch });
    await store.getState().send('What is this?', { attachments: [photo(), notes()] });
    const [turn] = userTurns(store);
    expect(turn?.fileNames).toEqual(['photo.png', 'notes.txt']);
    const shown = attachmentsOf(turn?.content ?? '', turn?.fileNames);
    expect(shown.map(({ name, size, mediaType }) => ({ name, size, mediaType }))).toEqual([
      { name: 'photo.png', size: 10, mediaType: 'image/png' },
      { name: 'notes.txt', size: 11, mediaType: 'text/plain' },
    ]);
    // Without the names (a message restored from elsewhere), or with a damaged record of
    // them: what the blocks say.
    expect(attachmentsOf(turn?.content ?? '').map((a) => a.name)).toEqual(['Image', 'notes.txt']);
    const damaged = 'xy' as unknown as string[];
    expect(attachmentsOf(turn?.content ?? '', damaged).map((a) => a.name)).toEqual([
      'Image',
      'notes.txt',
    ]);
  });

  it('keeps the files, with their names, when only the text is edited', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(textAnswer('Seen.')),
      () => sse(textAnswer('Seen again.')),
    );
    const store = createChatStore({ request: { model: 'claude-opus-5', max_tokens: 64 }, fetch });
    await store.getState().send('What is this?', { attachments: [photo()] });
    const [first] = userTurns(store);
    await store.getState().edit(first?.id as string, 'And now?');
    const [edited] = userTurns(store);
    expect(edited?.id).not.toBe(first?.id);
    expect(edited?.fileNames).toEqual(['photo.png']);
    const sent = requests[1]?.body.messages as { content: { type: string; text?: string }[] }[];
    expect(sent[0]?.content.map((block) => block.type)).toEqual(['image', 'text']);
    expect(sent[0]?.content[1]?.text).toBe('And now?');
  });

  it('leaves out the files an edit removes, by their attachmentsOf ids, and keeps the rest', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(textAnswer('Seen.')),
      () => sse(textAnswer('Seen again.')),
    );
    const store = createChatStore({ request: { model: 'claude-opus-5', max_tokens: 64 }, fetch });
    await store.getState().send('Both?', { attachments: [photo(), notes()] });
    const [first] = userTurns(store);
    const shown = attachmentsOf(first?.content ?? '', first?.fileNames);
    const photoId = shown.find((file) => file.name === 'photo.png')?.id as string;
    await store.getState().edit(first?.id as string, 'Only the notes?', { removeFiles: [photoId] });
    const [edited] = userTurns(store);
    expect(edited?.fileNames).toEqual(['notes.txt']);
    expect(attachmentsOf(edited?.content ?? '', edited?.fileNames).map((a) => a.name)).toEqual([
      'notes.txt',
    ]);
    const sent = requests[1]?.body.messages as { content: { type: string; text?: string }[] }[];
    expect(sent[0]?.content.map((block) => block.type)).toEqual(['document', 'text']);
    // The first version still has both: an edit is a new version, not a change to the old.
    expect(attachmentsOf(first?.content ?? '', first?.fileNames)).toHaveLength(2);
  });

  it('sends text alone when an edit removes every file', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(textAnswer('Seen.')),
      () => sse(textAnswer('Plain.')),
    );
    const store = createChatStore({ request: { model: 'claude-opus-5', max_tokens: 64 }, fetch });
    await store.getState().send('What is this?', { attachments: [photo()] });
    const [first] = userTurns(store);
    const ids = attachmentsOf(first?.content ?? '', first?.fileNames).map((file) => file.id);
    await store.getState().edit(first?.id as string, 'Never mind.', { removeFiles: ids });
    const [edited] = userTurns(store);
    expect(edited?.content).toBe('Never mind.');
    expect(edited?.fileNames).toBeUndefined();
    expect(requests[1]?.body.messages).toEqual([{ role: 'user', content: 'Never mind.' }]);
  });
});
