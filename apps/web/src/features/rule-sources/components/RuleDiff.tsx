import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import { diffWordsWithSpace } from 'diff';

interface Piece {
  text: string;
  marked: boolean;
}

/**
 * The old and the new side of a rule's text, each as pieces in which what the other side lacks
 * is marked: a word diff, as a rule is one long line and a line diff would mark all of it.
 */
export function ruleDiffSides(
  oldText: string | null,
  newText: string | null,
): { old: Piece[] | null; new: Piece[] | null } {
  if (oldText === null || newText === null) {
    return {
      old: oldText === null ? null : [{ text: oldText, marked: false }],
      new: newText === null ? null : [{ text: newText, marked: false }],
    };
  }
  const changes = diffWordsWithSpace(oldText, newText);
  return {
    old: changes
      .filter((change) => !change.added)
      .map((change) => ({ text: change.value, marked: change.removed })),
    new: changes
      .filter((change) => !change.removed)
      .map((change) => ({ text: change.value, marked: change.added })),
  };
}

const SIDES = {
  old: { sign: '−', line: 'rgba(248, 81, 73, 0.10)', mark: 'rgba(248, 81, 73, 0.40)' },
  new: { sign: '+', line: 'rgba(46, 160, 67, 0.12)', mark: 'rgba(46, 160, 67, 0.45)' },
} as const;

function DiffLine({ side, pieces }: { side: 'old' | 'new'; pieces: Piece[] }) {
  const { t } = useTranslation();
  const colors = SIDES[side];
  return (
    <Box
      component="pre"
      dir="ltr"
      data-testid={`diff-${side}`}
      aria-label={side === 'old' ? t('ruleSources.diff.old') : t('ruleSources.diff.new')}
      sx={{
        m: 0,
        px: 1.5,
        py: 0.75,
        bgcolor: colors.line,
        fontSize: 12,
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-all',
        // 'start' of its own ltr direction: the RTL style plugin would flip 'left'.
        textAlign: 'start',
      }}
    >
      <Box component="span" aria-hidden sx={{ userSelect: 'none', pe: 1, opacity: 0.7 }}>
        {colors.sign}
      </Box>
      {pieces.map((piece, index) =>
        piece.marked ? (
          <Box
            key={index}
            component={side === 'old' ? 'del' : 'ins'}
            sx={{ bgcolor: colors.mark, textDecoration: 'none', borderRadius: 0.5 }}
          >
            {piece.text}
          </Box>
        ) : (
          <span key={index}>{piece.text}</span>
        ),
      )}
    </Box>
  );
}

/** A unified diff of one rule: the old text over the new, the changed words marked. */
export function RuleDiff({ oldText, newText }: { oldText: string | null; newText: string | null }) {
  const sides = useMemo(() => ruleDiffSides(oldText, newText), [oldText, newText]);
  return (
    <Box
      data-testid="rule-diff"
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden' }}
    >
      {sides.old !== null && <DiffLine side="old" pieces={sides.old} />}
      {sides.new !== null && <DiffLine side="new" pieces={sides.new} />}
    </Box>
  );
}
