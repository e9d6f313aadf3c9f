// One-line text of a diagnostic, compiler style, for logs and API answers.

import type { Diagnostic } from './types.js';

/** `local.rules:7:22: error: bad-port: destination port: port 70000 is above 65535` */
export function formatDiagnostic(diagnostic: Diagnostic): string {
  const where = `${diagnostic.fileName ?? '<rule>'}:${diagnostic.line}:${diagnostic.column}`;
  return `${where}: ${diagnostic.severity}: ${diagnostic.code}: ${diagnostic.message}`;
}
