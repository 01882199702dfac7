// The program's version, as package.json states it (one level above both src/ and dist/).
import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function programVersion(): string {
  cached ??= (
    JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version;
  return cached;
}
