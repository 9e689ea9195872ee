// The daemon's version, read once from package.json.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from './code-files.js';

const pkg = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
export const VERSION: string = pkg.version;
