import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ShieldIcon from '@mui/icons-material/Shield';
import { useTranslation } from 'react-i18next';
import { Copyright } from '../../../components/page/Copyright';
import { LanguageMenu } from '../../../components/layout/LanguageMenu';

interface AuthCardProps {
  title: string;
  children: ReactNode;
  footer?: ReactNode;
}

/** The frame of the sign-in screens: product name, title, form, links, copyright. */
export function AuthCard({ title, children, footer }: AuthCardProps) {
  const { t } = useTranslation();
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        p: 2,
        bgcolor: 'grey.100',
      }}
    >
      <Box sx={{ width: '100%', maxWidth: 420 }}>
        <Paper sx={{ p: 4 }} elevation={3}>
          <Stack
            direction="row"
            sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}
          >
            <Stack
              direction="row"
              spacing={1}
              sx={{ alignItems: 'center', color: 'primary.textOnLight' }}
            >
              <ShieldIcon />
              <Typography variant="h6" component="p">
                {t('app.name')}
              </Typography>
            </Stack>
            <LanguageMenu />
          </Stack>
          <Typography variant="h5" component="h1" sx={{ mt: 2 }}>
            {title}
          </Typography>
          {children}
          {footer !== undefined && <Box sx={{ mt: 2 }}>{footer}</Box>}
        </Paper>
        <Box sx={{ mt: 2 }}>
          <Copyright />
        </Box>
      </Box>
    </Box>
  );
}
