import { describe, expect, it } from 'vitest';
import { matchCommands, type PaletteCommand } from './commands.ts';

const page = (label: string): PaletteCommand => ({ id: label, label, group: 'Pages', to: `/${label}` });
const pages = ['Applications', 'API resources', 'Audit logs', 'Sign-in experience', 'Rôles'].map(page);
const labels = (commands: PaletteCommand[]) => commands.map((command) => command.label);

describe('matchCommands', () => {
  it('returns everything for an empty query', () => {
    expect(labels(matchCommands(pages, '  '))).toEqual(labels(pages));
  });

  it('matches every word, ignoring case and accents, with prefix matches first', () => {
    expect(labels(matchCommands(pages, 'res'))).toEqual(['API resources']);
    expect(labels(matchCommands(pages, 'roles'))).toEqual(['Rôles']);
    expect(labels(matchCommands(pages, 'a'))).toEqual(['Applications', 'API resources', 'Audit logs']);
    expect(labels(matchCommands([page('Audit logs'), page('Logs')], 'lo'))).toEqual(['Logs', 'Audit logs']);
    expect(labels(matchCommands(pages, 'sign exp'))).toEqual(['Sign-in experience']);
    expect(matchCommands(pages, 'zzz')).toEqual([]);
  });
});
