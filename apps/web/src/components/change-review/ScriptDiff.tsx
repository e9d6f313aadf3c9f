import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { PreviewTextDiff } from '@palisade/contract';

const LINE_COLORS = {
  '+': 'rgba(46, 160, 67, 0.15)',
  '-': 'rgba(248, 81, 73, 0.12)',
  '@': 'rgba(56, 139, 253, 0.10)',
} as const;

/** A unified diff of a script, its added and removed lines tinted. */
export function ScriptDiff({ title, diff }: { title: string; diff: PreviewTextDiff }) {
  const { t } = useTranslation();
  // The two file headers say nothing a user needs.
  const lines = diff.diff.split('\n').filter((line) => !/^(={3,}|-{3} |\+{3} |Index: )/.test(line));
  return (
    <Box sx={{ mt: 1 }}>
      <Typography variant="subtitle2" component="h4">
        {title}
      </Typography>
      <Box
        component="pre"
        dir="ltr"
        tabIndex={0}
        data-testid="script-diff"
        sx={{
          m: 0,
          p: 1,
          fontSize: 12,
          overflow: 'auto',
          maxHeight: 360,
          bgcolor: 'action.hover',
          borderRadius: 1,
          textAlign: 'start',
        }}
      >
        {lines.map((line, index) => {
          const sign = line[0];
          const bgcolor =
            sign === '+' || sign === '-' || sign === '@' ? LINE_COLORS[sign] : undefined;
          return (
            <Box key={index} component="span" sx={{ display: 'block', bgcolor }}>
              {line === '' ? ' ' : line}
            </Box>
          );
        })}
      </Box>
      {diff.truncated && (
        <Typography variant="caption" color="text.secondary">
          {t('changeReview.diffTruncated')}
        </Typography>
      )}
    </Box>
  );
}
