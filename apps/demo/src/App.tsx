import { ChatStream, type StreamRecorder } from '@message-stream/react';
import { ThreadList, type ThreadStore, useThreadStore } from '@message-stream/react/threads';
import {
  type KeyboardEvent,
  type ReactElement,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import {
  FAULTS,
  type FaultLabel,
  type SaveProblems,
  type Scenario,
  type Speed,
} from './threads.js';

type Theme = 'system' | 'light' | 'dark';

/** Each one fits a recorded answer: the mock picks the fixture from the prompt's words. */
const SUGGESTIONS = [
  'Explain the difference between let and const',
  'What is the weather in San Francisco?',
  'Summarize the French Revolution',
  'Search the web for today’s news',
  'Write a thorough guide to streaming UIs',
];

/** The fixture select's first option: no fixture forced, the mock picks from the prompt. */
const AUTO = '';

export interface FixtureChoice {
  readonly name: string;
  readonly description: string;
}

const THEMES: readonly { value: Theme; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

const THEME_KEY = 'message-stream-demo:theme';

/** The theme from `?theme=` (screenshots set it), else the one picked last time, else the system's. */
const initialTheme = (): Theme => {
  let wanted = new URLSearchParams(window.location.search).get('theme');
  try {
    wanted ??= window.localStorage.getItem(THEME_KEY);
  } catch {
    // Storage refused (a private window's settings): the system's.
  }
  return wanted === 'light' || wanted === 'dark' ? wanted : 'system';
};

/** Remembers the theme picked, for the next visit; quietly not where storage is refused. */
const rememberTheme = (theme: Theme): void => {
  try {
    window.localStorage.setItem(THEME_KEY, theme);
  } catch {
    // Only a convenience.
  }
};

/**
 * The scenario from the address (`?fixture=max-tokens&fault=http:429&speed=fast`), so a state
 * can be linked to and `pnpm screenshots` can open it; the defaults otherwise.
 */
export function initialScenario(fixtures: readonly FixtureChoice[]): Scenario {
  const params = new URLSearchParams(window.location.search);
  const fixture = params.get('fixture');
  const fault = Object.entries(FAULTS).find(([, value]) => value === params.get('fault'))?.[0];
  const speed = params.get('speed');
  return {
    fixture: fixture && fixtures.some((f) => f.name === fixture) ? fixture : AUTO,
    fault: (fault as FaultLabel | undefined) ?? 'none',
    speed: speed === 'fast' || speed === 'slow' ? speed : 'realistic',
  };
}

const WIDE = '(min-width: 56rem)';
const wide = () => typeof window.matchMedia === 'function' && window.matchMedia(WIDE).matches;
/** Whether the menu sits beside the chat (wide) rather than over it, as the window resizes. */
const subscribeWide = (onChange: () => void) => {
  if (typeof window.matchMedia !== 'function') return () => {};
  const query = window.matchMedia(WIDE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};

/** Light, dark or the system's: a segmented control of three toggle buttons. */
function ThemeToggle({
  theme,
  onChange,
  className,
}: {
  theme: Theme;
  onChange: (theme: Theme) => void;
  className: string;
}): ReactElement {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a segmented control, a group of toggle buttons.
    <div className={`demo__theme ${className}`} role="group" aria-label="Theme">
      {THEMES.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={theme === option.value}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

/** The mock's scenario: the fixture (or the prompt's words), a fault to inject, the speed. */
function ScenarioPicker({
  scenario,
  onChange,
  fixtures,
  described,
}: {
  scenario: Scenario;
  onChange: (scenario: Scenario) => void;
  fixtures: readonly FixtureChoice[];
  /** What the picked fixture (or the automatic pick) answers with. */
  described: string | undefined;
}): ReactElement {
  return (
    <fieldset className="demo__scenario">
      <legend>Scenario</legend>
      <label className="demo__field">
        <span>Fixture</span>
        <select
          value={scenario.fixture}
          onChange={(e) => onChange({ ...scenario, fixture: e.target.value })}
        >
          <option value={AUTO}>Auto: fits the prompt</option>
          {fixtures.map((f) => (
            <option key={f.name} value={f.name} title={f.description}>
              {f.name}
            </option>
          ))}
        </select>
      </label>
      {described ? <p className="demo__hint">{described}</p> : null}
      <label className="demo__field">
        <span>Fault</span>
        <select
          value={scenario.fault}
          onChange={(e) => onChange({ ...scenario, fault: e.target.value as FaultLabel })}
        >
          {Object.keys(FAULTS).map((label) => (
            <option key={label} value={label}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label className="demo__field">
        <span>Speed</span>
        <select
          value={scenario.speed}
          onChange={(e) => onChange({ ...scenario, speed: e.target.value as Speed })}
        >
          <option value="fast">fast</option>
          <option value="realistic">realistic</option>
          <option value="slow">slow</option>
        </select>
      </label>
    </fieldset>
  );
}

export function App({
  live,
  fixtures = [],
  threads,
  problems,
  recorder,
  scenarioHolder,
}: {
  live: boolean;
  fixtures?: readonly FixtureChoice[];
  /** The page's conversations, restored from IndexedDB before the first render (threads.ts). */
  threads: ThreadStore;
  /** Failed saves, shown above the chat. */
  problems: SaveProblems;
  /** Every answer's raw stream, so its details offer it as an .sse file. */
  recorder: StreamRecorder;
  /** Read by the store's request headers: the scenario picked here. */
  scenarioHolder: { current: Scenario };
}): ReactElement {
  const [scenario, setScenario] = useState<Scenario>(() => scenarioHolder.current);
  const [theme, setChosenTheme] = useState<Theme>(initialTheme);
  const setTheme = (next: Theme) => {
    setChosenTheme(next);
    rememberTheme(next);
  };
  const [settingsOpen, setSettingsOpen] = useState(wide);
  const settingsToggle = useRef<HTMLButtonElement>(null);
  // On a phone the menu sits over the chat: Escape puts it away, focus back on Menu. Beside
  // the chat (wide) it is a sidebar and stays.
  const onSettingsKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || event.defaultPrevented || wide()) return;
    event.preventDefault();
    setSettingsOpen(false);
    settingsToggle.current?.focus();
  };
  const problem = useSyncExternalStore(problems.subscribe, problems.current);

  // What the next request's headers read (after the render that picked it, not during one).
  useEffect(() => {
    scenarioHolder.current = scenario;
  }, [scenario, scenarioHolder]);

  // The page paints in the chosen theme too, not only the chat.
  useEffect(() => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  }, [theme]);

  // The scenario picker applies to whichever thread is shown. A thread switched away from
  // keeps streaming.
  const activeId = useThreadStore(threads, (state) => state.activeId);
  const store = threads.getState().chatOf(activeId ?? undefined);
  // On a phone the menu covers the chat: picking a conversation (or a new one) is going to it.
  // Focus goes back to Menu, as with Escape: what had it is gone with the sheet.
  const closeOnPhone = () => {
    if (wide()) return;
    setSettingsOpen(false);
    settingsToggle.current?.focus();
  };
  const isWide = useSyncExternalStore(subscribeWide, wide, () => true);
  // While the sheet covers the chat, the chat is out of reach (keyboard, screen readers).
  const covered = settingsOpen && !isWide && !live;

  const described =
    scenario.fixture === AUTO
      ? 'The mock answers with the recorded stream whose topic fits your words: weather, a summary, a search, code, a guide…'
      : fixtures.find((f) => f.name === scenario.fixture)?.description;

  return (
    <div className="demo">
      <header className="demo__header">
        <div className="demo__brand">
          <span className="demo__logo" aria-hidden="true" />
          <h1>message-stream</h1>
        </div>
        <p className="demo__mode">
          {live ? 'Live API through the dev server proxy' : 'Built-in mock (no key, no network)'}
        </p>
        <div className="demo__tools">
          <ThemeToggle theme={theme} onChange={setTheme} className="demo__theme--header" />
          {live ? null : (
            <button
              ref={settingsToggle}
              type="button"
              className="demo__settings-toggle"
              aria-expanded={settingsOpen}
              aria-controls="demo-settings"
              onClick={() => setSettingsOpen((open) => !open)}
              // Escape on Menu itself puts the open sheet away too (focus stays here).
              onKeyDown={onSettingsKeyDown}
            >
              Menu
            </button>
          )}
        </div>
      </header>
      <div className="demo__body">
        {live ? null : (
          <aside
            id="demo-settings"
            className="demo__settings"
            aria-label="Conversations and settings"
            hidden={!settingsOpen}
            onKeyDown={onSettingsKeyDown}
          >
            <ThreadList store={threads} onOpen={closeOnPhone} className="demo__threads" />
            <div className="demo__panel-foot">
              <ScenarioPicker
                scenario={scenario}
                onChange={setScenario}
                fixtures={fixtures}
                described={described}
              />
              <ThemeToggle theme={theme} onChange={setTheme} className="demo__theme--panel" />
              <details className="demo__about">
                <summary>About this demo</summary>
                <p className="demo__note">
                  Answers come from recorded streams of the Messages API, replayed by a service
                  worker: no key, no network. The details button under each answer offers its raw
                  stream as an .sse file.
                </p>
                <p className="demo__note">
                  Conversations are kept in this browser (IndexedDB): reload and they are back, with
                  every version of an edited message, the files attached, a tool call waiting for
                  approval, and an answer cut off by the reload, ready to resume. Delete a
                  conversation to remove what was saved of it.
                </p>
              </details>
            </div>
          </aside>
        )}
        {live || !settingsOpen ? null : (
          // A phone's menu covers the chat; a tap beside it puts it away (wide: not shown).
          <div className="demo__scrim" aria-hidden="true" onClick={closeOnPhone} />
        )}
        <main className="demo__chat" inert={covered}>
          {problem ? (
            <p className="demo__save-problem" role="status">
              {problem}
            </p>
          ) : null}
          <ChatStream
            key={activeId ?? 'none'}
            store={store ?? undefined}
            record={recorder}
            theme={theme}
            label="Demo conversation"
            welcome="What shall we try?"
            welcomeDescription={
              live
                ? 'Answers stream from the API through the dev server.'
                : 'Answers come from recorded streams. Pick a scenario, or start with one of these.'
            }
            suggestions={SUGGESTIONS}
            onFeedback={(turn, value) => console.info('feedback', turn.id, value)}
          />
        </main>
      </div>
    </div>
  );
}
