import type { ReactNode } from 'react';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

interface EmptyStateProps {
  icon?: ReactNode;
  title: string;
  body?: string;
}

export function EmptyState({ icon, title, body }: EmptyStateProps) {
  return (
    <Paper
      variant="outlined"
      data-testid="empty-state"
      sx={{ p: 4, textAlign: 'center', color: 'text.secondary' }}
    >
      {icon}
      <Typography variant="h6" component="p" sx={{ color: 'text.primary', mt: 1 }}>
        {title}
      </Typography>
      {body !== undefined && <Typography sx={{ mt: 1 }}>{body}</Typography>}
    </Paper>
  );
}
