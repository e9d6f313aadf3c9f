import { parseRulesFile, type Rule } from '@palisade/rules';
import { sampleRulesFiles } from './corpus.js';

export interface RuleFile {
  name: string;
  text: string;
}

/** The rule added by the "next day" of a source. */
export const NEXT_DAY_RULE =
  'alert tcp any any -> $HOME_NET 4444 (msg:"next day rule"; sid:9900001; rev:1;)';

export interface SourceDays {
  /** Day one: two real rule files (the corpus's Suricata rules, else the project's samples). */
  first: RuleFile[];
  /** Day two: in the first file one rule changed, one removed, one disabled, one added. */
  next: RuleFile[];
  changedRule: Rule;
  removedRule: Rule;
  disabledRule: Rule;
  /** The changed rule's text on day two. */
  changedText: string;
}

const enabledOneLine = (file: RuleFile) =>
  parseRulesFile(file.text).rules.filter(
    (rule) => rule.enabled && rule.rev !== null && !rule.text.includes('\n'),
  );

/** Two days of a rule source, with what changed between them known exactly. */
export function sourceDays(): SourceDays {
  const files = sampleRulesFiles().map((file) => ({
    name: file.name,
    text: typeof file.bytes === 'string' ? file.bytes : Buffer.from(file.bytes).toString('utf8'),
  }));
  const changing = files.find((file) => enabledOneLine(file).length >= 3);
  const steady = files.find((file) => file !== changing && enabledOneLine(file).length >= 1);
  if (!changing || !steady) throw new Error('the sample rule files have too few rules');
  // The rules that change are ones no other line holds: the samples may repeat a sid, and a
  // repeated sid's other copy would make a second change.
  const keyOf = (rule: Rule) => `${rule.gid}:${rule.sid}`;
  const copies = new Map<string, number>();
  for (const file of [changing, steady])
    for (const rule of parseRulesFile(file.text).rules)
      copies.set(keyOf(rule), (copies.get(keyOf(rule)) ?? 0) + 1);
  const unique = enabledOneLine(changing).filter((rule) => copies.get(keyOf(rule)) === 1);
  if (unique.length < 3) throw new Error('the sample rule files have too few distinct rules');
  const [changedRule, removedRule, disabledRule] = unique as [Rule, Rule, Rule];
  const changedText = changedRule.text
    .replace(/\brev\s*:\s*\d+/, `rev:${(changedRule.rev ?? 0) + 1}`)
    .replace(/msg\s*:\s*"/, 'msg:"(next day) ');
  const lines = changing.text.split('\n');
  const at = (rule: Rule) => rule.line - 1;
  lines[at(changedRule)] = changedText;
  lines[at(disabledRule)] = `# ${disabledRule.text}`;
  lines[at(removedRule)] = '';
  lines.push(NEXT_DAY_RULE, '');
  return {
    first: [changing, steady],
    next: [{ name: changing.name, text: lines.join('\n') }, steady],
    changedRule,
    removedRule,
    disabledRule,
    changedText,
  };
}
