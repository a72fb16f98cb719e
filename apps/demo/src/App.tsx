import { ChatStream, createChatStore } from '@message-stream/react';
import { type ReactElement, useRef, useState } from 'react';

/** Faults the mock can inject, by label: each one exercises a part of the kit. */
const FAULTS = {
  none: '',
  'Drop the connection after 40 events': 'drop-after-events:40',
  'Drop mid-line after 3000 bytes': 'drop-after-bytes:3000',
  'In-stream overloaded error after 20 events': 'error-after-events:20',
  'Stall longer than the idle timeout': 'stall-after-events:10',
  'Network error before any response': 'network-error',
  '401 revoked key (gateway shape)': 'http:401',
  '402 no credit': 'http:402',
  '403 model not enabled': 'http:403',
  '429 rate limited (retry-after)': 'http:429',
  '529 overloaded': 'http:529',
} as const;

type FaultLabel = keyof typeof FAULTS;
type Speed = 'fast' | 'realistic' | 'slow';

interface Scenario {
  fixture: string;
  fault: FaultLabel;
  speed: Speed;
}

const TOOL_WEATHER: Record<string, string> = {
  get_weather: '18 °C, light wind, clear sky',
};

/** The mock's scenario header (the mock itself is loaded only in mock mode, by main.tsx). */
const SCENARIO_HEADER = 'x-mock-scenario';

export interface FixtureChoice {
  readonly name: string;
  readonly description: string;
}

export function App({
  live,
  fixtures = [],
}: {
  live: boolean;
  fixtures?: readonly FixtureChoice[];
}): ReactElement {
  const [scenario, setScenario] = useState<Scenario>({
    fixture: 'long-markdown',
    fault: 'none',
    speed: 'realistic',
  });
  const current = useRef(scenario);
  current.current = scenario;

  // One store for the page: the scenario picker and the chat share it.
  const [store] = useState(() => {
    const created = createChatStore({
      request: { model: live ? 'claude-sonnet-4-5' : 'claude-opus-5', max_tokens: 4096 },
      idleTimeoutMs: 8_000,
      retry: { retries: 0 },
      headers: (): Record<string, string> => {
        if (live) return {};
        const { fixture, fault, speed } = current.current;
        // `times=1`: the fault hits the first request of each message only (the seed counts
        // messages), so Resume and Retry get a clean stream and the next message fails again.
        // Tool results and paused turns sent back get the mock's follow-up fixture.
        const sent = created.getState().turns.filter((turn) => turn.role === 'user').length;
        const faulty = FAULTS[fault] ? `;fault=${FAULTS[fault]};times=1` : '';
        const scenario = `${fixture};speed=${speed};seed=${sent}${faulty}`;
        return { [SCENARIO_HEADER]: scenario };
      },
      onToolCall: async (call) => {
        await new Promise((resolve) => setTimeout(resolve, 600));
        return TOOL_WEATHER[call.name] ?? `No handler for ${call.name}; this is a demo result.`;
      },
    });
    return created;
  });

  return (
    <div className="demo">
      <header className="demo__header">
        <h1>message-stream</h1>
        <p className="demo__mode">
          {live ? 'Live API through the dev server proxy' : 'Built-in mock (no key, no network)'}
        </p>
        {live ? null : (
          <fieldset className="demo__scenario">
            <legend>Scenario</legend>
            <label>
              Fixture
              <select
                value={scenario.fixture}
                onChange={(e) => setScenario({ ...scenario, fixture: e.target.value })}
              >
                {fixtures.map((f) => (
                  <option key={f.name} value={f.name} title={f.description}>
                    {f.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Fault
              <select
                value={scenario.fault}
                onChange={(e) => setScenario({ ...scenario, fault: e.target.value as FaultLabel })}
              >
                {Object.keys(FAULTS).map((label) => (
                  <option key={label} value={label}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Speed
              <select
                value={scenario.speed}
                onChange={(e) => setScenario({ ...scenario, speed: e.target.value as Speed })}
              >
                <option value="fast">fast</option>
                <option value="realistic">realistic</option>
                <option value="slow">slow</option>
              </select>
            </label>
          </fieldset>
        )}
      </header>
      <main className="demo__chat">
        <ChatStream store={store} label="Demo conversation" />
      </main>
    </div>
  );
}
