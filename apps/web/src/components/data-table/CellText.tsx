import Typography from '@mui/material/Typography';

interface CellTextProps {
  text: string;
  /** Past this width the text ends in an ellipsis; the whole text is the title. */
  maxWidth: number;
  /** The caption under a cell's main line. */
  secondary?: boolean;
  /** The row's name: a little heavier. */
  strong?: boolean;
}

/**
 * One line of a table cell. It never wraps: the virtualised rows have a fixed height, and a
 * long name or address must not widen its column past the others. A native title, not a
 * Tooltip: thousands of rows mount while scrolling.
 */
export function CellText({ text, maxWidth, secondary = false, strong = false }: CellTextProps) {
  return (
    <Typography
      component="div"
      variant={secondary ? 'caption' : 'body2'}
      color={secondary ? 'text.secondary' : undefined}
      noWrap
      title={text}
      // A Latin name in the Arabic console keeps its beginning and ends in the ellipsis.
      dir="auto"
      // Physical on purpose: the right-to-left styles flip it to the page's start side, which
      // `start` would not do once `dir="auto"` has made this box left to right.
      sx={{ maxWidth, fontWeight: strong ? 500 : undefined, textAlign: 'left' }}
    >
      {text}
    </Typography>
  );
}
