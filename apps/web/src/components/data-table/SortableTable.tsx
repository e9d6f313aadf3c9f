import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  SortableContext,
  arrayMove,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import type { DataColumn } from './types';

/** Spec §2: the drag-sortable table animates a move for 150 ms. */
export const SORT_ANIMATION_MS = 150;

export interface SortedEvent<T> {
  order: T[];
  from: number;
  to: number;
}

interface SortableTableProps<T> {
  columns: DataColumn<T>[];
  rows: T[];
  getRowId: (row: T) => string;
  /** Emitted once a drag ends at a new position ('sorted'). */
  onSorted: (event: SortedEvent<T>) => void;
  label: string;
  emptyText?: string;
}

/** A table whose rows are reordered by dragging (mouse, touch or keyboard). */
export function SortableTable<T>({
  columns,
  rows,
  getRowId,
  onSorted,
  label,
  emptyText,
}: SortableTableProps<T>) {
  const { t } = useTranslation();
  const [order, setOrder] = useState(rows);
  const [source, setSource] = useState(rows);
  if (source !== rows) {
    // New rows from the parent replace the local order (React's "adjust state on prop change").
    setSource(rows);
    setOrder(rows);
  }
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over === null || active.id === over.id) return;
    const from = order.findIndex((row) => getRowId(row) === active.id);
    const to = order.findIndex((row) => getRowId(row) === over.id);
    if (from < 0 || to < 0) return;
    const next = arrayMove(order, from, to);
    setOrder(next);
    onSorted({ order: next, from, to });
  };

  return (
    <Paper variant="outlined">
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <Table size="small" aria-label={label}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 48 }} />
              {columns.map((column) => (
                <TableCell
                  key={column.id}
                  align={column.align}
                  sx={{ width: column.width, fontWeight: 600 }}
                >
                  {column.header}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            <SortableContext items={order.map(getRowId)} strategy={verticalListSortingStrategy}>
              {order.map((row) => (
                <SortableRow
                  key={getRowId(row)}
                  id={getRowId(row)}
                  handleLabel={t('table.dragHandle')}
                >
                  {columns.map((column) => (
                    <TableCell key={column.id} align={column.align}>
                      {column.cell(row)}
                    </TableCell>
                  ))}
                </SortableRow>
              ))}
            </SortableContext>
            {order.length === 0 && (
              <TableRow>
                <TableCell
                  colSpan={columns.length + 1}
                  sx={{ py: 4, textAlign: 'center', color: 'text.secondary' }}
                >
                  {emptyText ?? t('table.noData')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </DndContext>
    </Paper>
  );
}

function SortableRow({
  id,
  handleLabel,
  children,
}: {
  id: string;
  handleLabel: string;
  children: ReactNode;
}) {
  const {
    attributes,
    listeners,
    setNodeRef,
    setActivatorNodeRef,
    transform,
    transition,
    isDragging,
  } = useSortable({
    id,
    transition: { duration: SORT_ANIMATION_MS, easing: 'ease' },
  });
  return (
    <TableRow
      ref={setNodeRef}
      data-row-id={id}
      sx={{
        transform: CSS.Translate.toString(transform),
        transition,
        position: 'relative',
        zIndex: isDragging ? 1 : 'auto',
        bgcolor: isDragging ? 'action.selected' : undefined,
      }}
    >
      <TableCell>
        <IconButton
          ref={setActivatorNodeRef}
          size="small"
          aria-label={handleLabel}
          sx={{ cursor: 'grab', touchAction: 'none' }}
          {...attributes}
          {...listeners}
        >
          <DragIndicatorIcon fontSize="small" />
        </IconButton>
      </TableCell>
      {children}
    </TableRow>
  );
}
