import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TextDiff } from '@palisade/contract';

const COLORS = {
  added: { line: 'rgba(46, 160, 67, 0.12)', mark: 'rgba(46, 160, 67, 0.45)', sign: '+' },
  removed: { line: 'rgba(248, 81, 73, 0.10)', mark: 'rgba(248, 81, 73, 0.40)', sign: '−' },
} as const;

const code = {
  m: 0,
  px: 1.5,
  py: 0.5,
  fontSize: 12,
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-all',
  textAlign: 'start',
} as const;

/** One rule (or entry) added or removed, whole. */
export function WholeLine({ side, text }: { side: 'added' | 'removed'; text: string }) {
  return (
    <Box
      component="pre"
      dir="ltr"
      data-testid={`version-${side}`}
      sx={{ ...code, bgcolor: COLORS[side].line }}
    >
      <Box component="span" aria-hidden sx={{ userSelect: 'none', pe: 1, opacity: 0.7 }}>
        {COLORS[side].sign}
      </Box>
      {text}
    </Box>
  );
}

interface Part {
  value: string;
  added?: boolean;
  removed?: boolean;
}

/** A changed rule: its old text over its new one, the words that differ marked. */
export function ChangedLine({ parts }: { parts: Part[] }) {
  const side = (which: 'added' | 'removed') => (
    <Box component="pre" dir="ltr" sx={{ ...code, bgcolor: COLORS[which].line }}>
      <Box component="span" aria-hidden sx={{ userSelect: 'none', pe: 1, opacity: 0.7 }}>
        {COLORS[which].sign}
      </Box>
      {parts
        .filter((part) => (which === 'added' ? !part.removed : !part.added))
        .map((part, index) =>
          part[which] ? (
            <Box
              key={index}
              component={which === 'added' ? 'ins' : 'del'}
              sx={{ bgcolor: COLORS[which].mark, textDecoration: 'none', borderRadius: 0.5 }}
            >
              {part.value}
            </Box>
          ) : (
            <span key={index}>{part.value}</span>
          ),
        )}
    </Box>
  );
  return (
    <Box data-testid="version-changed" sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
      {side('removed')}
      {side('added')}
    </Box>
  );
}

/** A unified diff (nftables, routes, threshold.config), each line colored by its sign. */
export function UnifiedDiff({ title, diff }: { title: string; diff: TextDiff }) {
  const { t } = useTranslation();
  const lines = diff.unified.split('\n').filter((line) => line !== '');
  return (
    <Stack spacing={0.5}>
      <Typography variant="subtitle2">
        {title}{' '}
        <Typography component="span" variant="body2" color="text.secondary">
          {t('versions.lineCounts', { added: diff.added, removed: diff.removed })}
        </Typography>
      </Typography>
      {diff.unified === '' ? (
        <Typography variant="body2" color="text.secondary">
          {t('versions.noChange')}
        </Typography>
      ) : (
        <Box
          dir="ltr"
          tabIndex={0}
          data-testid="version-unified"
          sx={{
            textAlign: 'start',
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            maxHeight: '40vh',
            overflow: 'auto',
          }}
        >
          {lines.map((line, index) => {
            const kind =
              line.startsWith('+') && !line.startsWith('+++')
                ? 'added'
                : line.startsWith('-') && !line.startsWith('---')
                  ? 'removed'
                  : null;
            return (
              <Box
                key={index}
                component="pre"
                sx={{ ...code, py: 0, bgcolor: kind ? COLORS[kind].line : undefined }}
              >
                {line}
              </Box>
            );
          })}
        </Box>
      )}
    </Stack>
  );
}
