/** Translation key of a role from the server's enumeration; unknown roles show as sent. */
export function roleLabelKey(
  role: string,
): 'roles.Administrator' | 'roles.Operator' | 'roles.Viewer' | null {
  switch (role) {
    case 'Administrator':
      return 'roles.Administrator';
    case 'Operator':
      return 'roles.Operator';
    case 'Viewer':
      return 'roles.Viewer';
    default:
      return null;
  }
}
