// Commit subjects of at most 72 characters (the house style, docs/ARCHITECTURE.md "Commits"):
// checked for every commit since the rule took effect. Part of `npm run lint`. A checkout
// without that history (an export, a shallow clone) says so in one line and passes.
import { execFileSync } from 'node:child_process';

/** The last commit before the rule was enforced: earlier subjects are history. */
const ENFORCED_AFTER = '1ed923805724012ab73f7538ac76487b9b7f53de';
const MAX_SUBJECT = 72;

function git(args) {
  return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

let subjects;
try {
  git(['cat-file', '-e', `${ENFORCED_AFTER}^{commit}`]);
  subjects = git(['log', '--format=%h%x09%s', `${ENFORCED_AFTER}..HEAD`])
    .split('\n')
    .filter(Boolean);
} catch {
  console.log(`commit subjects: not checked (no git history back to ${ENFORCED_AFTER} here)`);
  process.exit(0);
}

const tooLong = subjects.filter((line) => line.split('\t')[1].length > MAX_SUBJECT);
if (tooLong.length > 0) {
  console.error(`Commit subjects longer than ${MAX_SUBJECT} characters:`);
  for (const line of tooLong) console.error(`  ${line}`);
  process.exit(1);
}
console.log(`commit subjects: ${subjects.length} checked, all within ${MAX_SUBJECT} characters`);
