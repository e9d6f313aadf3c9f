import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { PageShell } from '../../../components/page/PageShell';
import { Dashboard } from './Dashboard';

export interface HomeArea {
  to: string;
  title: string;
  description: string;
  icon: ReactNode;
}

/**
 * /home: the dashboard, what expires soon (composed by the app from the expiry feature), then
 * a start page leading to every area.
 */
export function HomePage({ areas, expiring }: { areas: HomeArea[]; expiring?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <PageShell title={t('nav.home')}>
      <Dashboard />
      {expiring}
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('home.intro')}
      </Typography>
      <Grid container spacing={2}>
        {areas.map((area) => (
          <Grid key={area.to} size={{ xs: 12, sm: 6, lg: 4 }}>
            <Card variant="outlined" sx={{ height: '100%' }}>
              <CardActionArea component={RouterLink} to={area.to} sx={{ height: '100%' }}>
                <CardContent>
                  {area.icon}
                  <Typography variant="h6" component="h2">
                    {area.title}
                  </Typography>
                  <Typography color="text.secondary">{area.description}</Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          </Grid>
        ))}
      </Grid>
    </PageShell>
  );
}
