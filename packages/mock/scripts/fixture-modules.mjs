// Writes fixtures/<name>.sse.js (the text as a string module) and its .d.ts for every
// fixtures/*.sse. The catalog loads each through its own literal `import()`, so a bundler
// makes one lazy chunk per fixture, and drops them all when nothing loads a fixture: a static
// import of the mock pulls no fixture bytes into an app. Run by the package's build and by the
// workspace's postinstall; the output is not committed (it repeats the .sse files).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';

const dir = new URL('../fixtures/', import.meta.url);
const declaration =
  '/** The fixture file, verbatim. */\ndeclare const text: string;\nexport default text;\n';
const mtime = (url) => {
  try {
    return statSync(url).mtimeMs;
  } catch {
    return -1;
  }
};
for (const file of readdirSync(dir).filter((name) => name.endsWith('.sse'))) {
  // Up to date when the module is newer than its .sse (a fixture edit rewrites it).
  if (mtime(new URL(`${file}.js`, dir)) >= mtime(new URL(file, dir))) continue;
  const text = readFileSync(new URL(file, dir), 'utf8');
  writeFileSync(new URL(`${file}.js`, dir), `export default ${JSON.stringify(text)};\n`);
  writeFileSync(new URL(`${file}.d.ts`, dir), declaration);
}
