// An operator key for a test app: made as the CLI makes it (the service), never over HTTP.
import type { TestApp } from '../helpers/app.js';

export async function operatorAuth(t: TestApp): Promise<string> {
  const k = await t.s.operators.create('test operator');
  return `ApiKey ${k.key}`;
}
