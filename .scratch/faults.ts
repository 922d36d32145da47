import { readFileSync, writeFileSync } from 'node:fs';
import { startServer } from '../bench/processes.ts';
import { client, offersBody, resellerHeaders, token } from '../bench/fixtures.ts';
import { load } from '../bench/load.ts';
const stat = (pid: number) => { const s = readFileSync(`/proc/${pid}/stat`, 'utf8'); const f = s.slice(s.lastIndexOf(')') + 2).split(' '); return { minflt: Number(f[7]), utime: Number(f[11]), stime: Number(f[12]) }; };
const body = JSON.stringify(offersBody(2));
const mem = await startServer('signalbox', process.argv[2] ?? 'memory', 'm');
const headers = resellerHeaders(await token(mem.base));
const c = client(mem.base, 1); const res = await c.send('POST', '/v3/offers', body, headers); c.close();
writeFileSync('/tmp/i22/ans.json', JSON.stringify([{ method: 'POST', path: '/v3/offers', status: 200, body: res.body }]));
const rep = await startServer('replay-fastify', '/tmp/i22/ans.json', 'r');
for (const [name, s] of [['signalbox', mem], ['replay-fastify', rep]] as const) {
  await load({ base: s.base, method: 'POST', path: '/v3/offers', headers, body, seconds: 2 });
  const a = stat(s.pid); const x = await load({ base: s.base, method: 'POST', path: '/v3/offers', headers, body, seconds: 4 }); const b = stat(s.pid);
  console.log(name, 'minor faults/request', ((b.minflt - a.minflt) / x.requests).toFixed(2), 'stime ticks/1000req', ((b.stime - a.stime) * 1000 / x.requests).toFixed(1), 'utime', ((b.utime - a.utime) * 1000 / x.requests).toFixed(1));
}
await mem.stop(); await rep.stop();
