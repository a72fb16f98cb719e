import { benchPipeline, pipelineTable } from './pipeline.js';
const rows = await benchPipeline(console.log, { quick: process.argv.includes('--quick') });
console.log(pipelineTable(rows));
