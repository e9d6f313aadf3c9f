import { useLayoutEffect, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { endPrepaint } from '../../lib/prepaint-frame';

interface PageShellProps {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}

/** Title row plus content: every routed screen inside the layout uses it. */
export function PageShell({ title, actions, children }: PageShellProps) {
  // The frame painted before the console's scripts ran goes in the commit that draws the screen.
  useLayoutEffect(endPrepaint, []);
  return (
    <Box component="section" sx={{ p: { xs: 2, md: 3 } }}>
      <Stack
        direction="row"
        sx={{
          alignItems: 'center',
          justifyContent: 'space-between',
          mb: 2,
          gap: 2,
          flexWrap: 'wrap',
        }}
      >
        <Typography variant="h5" component="h1">
          {title}
        </Typography>
        {actions}
      </Stack>
      {children}
    </Box>
  );
}
