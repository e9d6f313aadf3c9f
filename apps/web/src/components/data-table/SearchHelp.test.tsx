// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import ar from '../../locales/ar.json';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import { renderScreen } from '../../testing/render';
import { matchesSearch, parseSearch } from '@palisade/search-syntax';
import { DataTable } from './DataTable';
import { initialTableState } from './list-params';
import { localPage } from './local-page';
import { SearchField } from './SearchField';

afterEach(cleanup);

const HELP = en.table.searchHelp;

describe('SearchHelp', () => {
  it('sits under every search box, describing it, beside the list’s own hint', () => {
    renderScreen(<SearchField value="" onChange={vi.fn()} hint="Also field:value terms" />);
    const help = screen.getByTestId('search-help');
    expect(help.textContent).toBe(HELP);
    const box = screen.getByRole('searchbox', { name: 'Search' });
    expect(box.getAttribute('aria-describedby')).toContain(help.id);
    expect(screen.getByText('Also field:value terms')).toBeTruthy();
  });

  it('is shown by every DataTable that searches, and by none that does not', () => {
    const columns = [{ id: 'name', header: 'Name', cell: (row: { name: string }) => row.name }];
    const table = (searchable: boolean) => (
      <DataTable
        label="Things"
        columns={columns}
        rows={[{ name: 'a' }]}
        total={1}
        getRowId={(row) => row.name}
        state={initialTableState()}
        onStateChange={vi.fn()}
        searchable={searchable}
      />
    );
    renderScreen(table(true));
    expect(screen.getAllByTestId('search-help')).toHaveLength(1);
    cleanup();
    renderScreen(table(false));
    expect(screen.queryByTestId('search-help')).toBeNull();
  });

  it('names the same syntax in every language', () => {
    for (const text of [en.table.searchHelp, ru.table.searchHelp, ar.table.searchHelp]) {
      expect(text).toContain('"');
      expect(text).toContain('OR');
      expect(text).toContain('-');
    }
  });
});

describe('the search syntax on lists the browser searches', () => {
  const rows = [
    { name: 'edge-berlin', text: 'core router north' },
    { name: 'edge-paris', text: 'router core south' },
    { name: 'lab-sensor', text: 'test bench, core' },
  ];
  const found = (search: string) =>
    localPage(rows, { ...initialTableState(), search }, (r) => [r.name, r.text]).rows.map(
      (r) => r.name,
    );

  it('takes words, "phrases", -negation and OR as the server does', () => {
    expect(found('core router')).toEqual(['edge-berlin', 'edge-paris']);
    expect(found('"core router"')).toEqual(['edge-berlin']);
    expect(found('core -router')).toEqual(['lab-sensor']);
    expect(found('north OR south')).toEqual(['edge-berlin', 'edge-paris']);
    expect(found('CORE -"router north"')).toEqual(['edge-paris', 'lab-sensor']);
    expect(found('-')).toHaveLength(3);
    expect(matchesSearch(['x'], parseSearch(''))).toBe(true);
  });
});
