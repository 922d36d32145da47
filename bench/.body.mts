import { offersBody } from './fixtures.ts';
process.stdout.write(JSON.stringify(offersBody(2)));
