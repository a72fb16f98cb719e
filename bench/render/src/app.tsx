/**
 * The page: one contender (`?contender=ours`: <ChatStream/>, or `naive`) mounted idle; the
 * driver calls `window.__bench.run()`, which sends the question, measures until the final
 * answer is in the DOM, and returns the figures. `network` renders nothing: it reads the same
 * response to its end, to tell what the mock and the per-read task hop cost on their own.
 */
import { ChatStream, createChatStore } from '@message-stream/react';
// The block view itself, not the exported wrapper that loads it: the one an answer renders
// (the page is built from the packages' dist, as an app would get them).
import { ContentBlockView } from '../../../packages/react/dist/components/content-block-view.js';
import '@message-stream/react/styles.css';
import { Profiler, type ReactElement } from 'react';
import type { Root } from 'react-dom/client';
import type { Probe } from './hook.js';
import { benchFetch, type NetTimes, requestAnswer } from './net.js';
import { answerOptions, answerQuery, answerStream, historyMessages, SENTINELS } from './sse.js';
import { CONTENDERS, type Contender, type RunStats } from './stats.js';

export interface Bench {
  /**
   * performance.now() (ms since navigation) once the mounted page has painted twice, less the
   * time the page spent making the bench's own data (the answer's bytes, the saved thread).
   */
  readonly interactiveMs: number;
  run(): Promise<RunStats>;
  /**
   * Whether the final DOM holds the end of the thinking, the text and the tool input (the
   * network contender: whether every byte was read). Called after the measured run: reading
   * the page's text at N = 1,000 is an 18 ms task, the bench's own, not the contender's.
   */
  verify(): boolean;
  /**
   * Scrolls the conversation log from top to bottom, 1,000 px per frame, and counts dropped
   * frames (a gap between two animation frames over 1.5 × 16.7 ms counts its extra frames).
   */
  scrollThrough(): Promise<{ frames: number; dropped: number }>;
}

/** Reads a response to its end and does nothing with it. */
async function drain(fetchImpl: typeof fetch): Promise<void> {
  const response = await requestAnswer(fetchImpl);
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error('No body');
  while (!(await reader.read()).done) {}
}

const frame = (): Promise<number> => new Promise((resolve) => requestAnimationFrame(resolve));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function mount(params: URLSearchParams, probe: Probe): Promise<Bench> {
  const name = params.get('contender');
  const contender: Contender = CONTENDERS.includes(name as Contender)
    ? (name as Contender)
    : 'ours';
  const profiling = params.get('profiling') === '1';
  // The bench's own data, made on the page before anything is mounted: its time is taken out
  // of "composer interactive" (`ownMs`). Making 1,000 turns of random markdown is some 50 ms
  // that no app spends; an app restoring a saved thread parses it, and that parse is counted.
  const ownStart = performance.now();
  const answer = answerStream(answerOptions(params));
  const history = Number(params.get('history') ?? 0);
  const savedThread =
    contender === 'ours' && history > 0 ? JSON.stringify(historyMessages(history, 11)) : null;
  const times: NetTimes = { firstByte: 0, lastByte: 0, chunks: 0, bytes: 0 };
  const fetchImpl = benchFetch(
    answer.sse,
    times,
    params.get('net') === 'http' ? answerQuery(params) : undefined,
  );
  // Counted here, before the driver starts tracing: encoding a 1 MB answer is a task of tens
  // of milliseconds that is the bench's own, not the contender's.
  const answerBytes = new TextEncoder().encode(answer.sse).length;
  const ownMs = performance.now() - ownStart;
  probe.blockComponent = ContentBlockView;

  const { createRoot } = profiling
    ? ((await import('react-dom/profiling')) as typeof import('react-dom/client'))
    : await import('react-dom/client');
  const element = document.getElementById('root');
  if (element === null) throw new Error('No #root');
  const root: Root = createRoot(element);

  let send: () => void;
  let view: ReactElement | null = null;
  /** Resolves when the network contender has read the whole body. */
  let drained: Promise<void> | null = null;
  if (contender === 'network') {
    send = () => {
      drained = drain(fetchImpl);
    };
  } else if (contender === 'ours') {
    const store = createChatStore({
      fetch: fetchImpl,
      endpoint: '/v1/messages',
      request: { model: 'claude-opus-5', max_tokens: 16384 },
      ...(savedThread !== null ? { initialMessages: JSON.parse(savedThread) } : {}),
    });
    send = () => void store.getState().send('Write the rendering report.');
    view = <ChatStream store={store} label="Benchmark conversation" />;
  } else {
    let start: (() => void) | null = null;
    const ready = (fn: () => void) => {
      start = fn;
    };
    send = () => start?.();
    // Each contender's code is loaded only on its own page, as in an app that uses it: the
    // peers' kits (about 2 MB) used to be evaluated on every page, ours included, and counted
    // in each page's time to an interactive composer.
    const Chat =
      contender === 'ai-sdk'
        ? (await import('./peers/ai-sdk.js')).AiSdkChat
        : contender === 'assistant-ui'
          ? (await import('./peers/assistant-ui.js')).AssistantUiChat
          : (await import('./naive.js')).NaiveChat;
    view = <Chat fetch={fetchImpl} onReady={ready} />;
  }
  root.render(
    <Profiler
      id="bench"
      onRender={() => {
        probe.profilerCommits++;
      }}
    >
      {view}
    </Profiler>,
  );
  await frame();
  await frame();
  // The page shows the conversation and the composer takes input: what a user waits for.
  const interactiveMs = performance.now() - ownMs;
  // Where a trace of the load (category blink.user_timing) is cut to read this figure's work.
  performance.mark('bench:interactive');
  // A user takes seconds to type the question: every contender gets half a second and the
  // idle periods in it (whatever it warms up there) before the send, as it would in use. One
  // idle period was not always enough: what is warmed up from a chunk asked for at mount
  // (ours: the fonts an answer uses, a 20-40 ms layout) then ran in the send's first task.
  await new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 1000 }));
  await new Promise<void>((resolve) => setTimeout(resolve, 500));
  await new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 1000 }));
  await frame();

  return {
    interactiveMs,
    async scrollThrough() {
      const log = element.querySelector<HTMLElement>('[role="log"]');
      if (log === null) return { frames: 0, dropped: 0 };
      log.scrollTop = 0;
      await frame();
      await frame();
      let frames = 0;
      let dropped = 0;
      let last = await frame();
      while (log.scrollTop + log.clientHeight < log.scrollHeight - 1) {
        log.scrollTop += 1000;
        const now = await frame();
        frames++;
        const gap = now - last;
        if (gap > 16.7 * 1.5) dropped += Math.round(gap / 16.7) - 1;
        last = now;
      }
      return { frames, dropped };
    },
    async run() {
      const longTasks: PerformanceEntry[] = [];
      const observer = new PerformanceObserver((list) => {
        longTasks.push(...list.getEntries());
      });
      observer.observe({ type: 'longtask' });

      let finalDom = 0;
      const allShown = (scope: Element) => {
        const text = scope.textContent ?? '';
        return Object.values(SENTINELS).every((sentinel) => text.includes(sentinel));
      };
      const final = new Promise<void>((resolve) => {
        const done = () => {
          finalDom = performance.now();
          resolve();
        };
        const mutations = new MutationObserver((records) => {
          for (const record of records) {
            // The answer's own status (blocks and tool cards carry one too).
            const answer = record.target as Element;
            if (!answer.matches('article[data-status="complete"]')) continue;
            // Earlier answers (the long-conversation history) are complete too, and take their
            // status again as the windowed log mounts them: only the newest answer counts.
            const answers = element.querySelectorAll('article[data-status]');
            if (answers[answers.length - 1] !== answer) continue;
            mutations.disconnect();
            const completedAt = performance.now();
            // Its text is read in a task of its own: a read of the whole answer (1-2 ms at the
            // end of the 5,000-line answer) is the bench's work, not the page's, and read here
            // it was counted in the task that drew the answer's end. If it is all there then,
            // the final DOM is the answer's last change before (the one that said it was
            // complete, unless its text changed after).
            let lastChange = completedAt;
            const watch = new MutationObserver(() => {
              lastChange = performance.now();
            });
            const text = { subtree: true, childList: true, characterData: true };
            watch.observe(answer, text);
            setTimeout(() => {
              watch.disconnect();
              // Read in the answer, not the page: the page's text at N = 1,000 is a 17 ms read.
              if (allShown(answer)) {
                finalDom = lastChange;
                resolve();
                return;
              }
              // Complete, but still revealing text (assistant-ui animates text in after the
              // stream): the final DOM is when the end of every block is on the page.
              const reveal = new MutationObserver(() => {
                if (!allShown(answer)) return;
                reveal.disconnect();
                done();
              });
              reveal.observe(answer, text);
            }, 0);
            return;
          }
        });
        mutations.observe(element, {
          subtree: true,
          attributes: true,
          attributeFilter: ['data-status'],
        });
      });

      // An animation-frame callback in every frame: frames are seen (and counted) even when
      // nothing else asks for one; the longest gap between two is the worst stall.
      let frames = 0;
      let longestFrameGapMs = 0;
      let ticking = true;
      let last = performance.now();
      const tick = (now: number) => {
        frames++;
        if (now - last > longestFrameGapMs) longestFrameGapMs = now - last;
        last = now;
        if (ticking) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);

      const commits0 = probe.commits;
      const profiler0 = probe.profilerCommits;
      probe.start();
      const started = performance.now();
      send();
      const timeout = sleep(300_000).then(() => {
        throw new Error(`No final DOM within 300 s (${times.chunks} chunks read)`);
      });
      if (drained !== null) {
        await drained;
        finalDom = performance.now();
      } else await Promise.race([final, timeout]);
      // Settle: whatever the final state still triggers (effects, announcements) counts too.
      await frame();
      await frame();
      await sleep(100);
      ticking = false;
      probe.stop();
      longTasks.push(...observer.takeRecords());
      observer.disconnect();

      return {
        contender,
        profiling,
        events: answer.events,
        chunks: times.chunks,
        bytes: answerBytes,
        markdownChars: answer.markdown.length,
        commits: probe.commits - commits0,
        profilerCommits: probe.profilerCommits - profiler0,
        frames,
        maxCommitsPerFrame: probe.frames.maxCommits,
        framesOverOneCommit: probe.frames.overOne,
        crowdedFrames: probe.frames.crowded,
        longTasks: longTasks.length,
        longestFrameGapMs,
        totalMs: finalDom - started,
        streamMs: times.lastByte - times.firstByte,
        lastByteToDomMs: finalDom - times.lastByte,
        renders: probe.report(),
      };
    },
    verify() {
      if (contender === 'network') return times.bytes === answerBytes;
      const text = element.textContent ?? '';
      return Object.values(SENTINELS).every((sentinel) => text.includes(sentinel));
    },
  };
}
