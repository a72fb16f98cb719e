/** Child process of the partial JSON bench: one measurement, printed as JSON (see inChild). */
import { type CaseSpec, measureCase } from './partial-json.js';

const spec = JSON.parse(process.argv[2] as string) as CaseSpec;
process.stdout.write(JSON.stringify(await measureCase(spec)));
