import { describe, expect, it } from 'vitest';
import { connectorLogoSvg, connectorLogos, markColour } from './connector-logos.ts';

/** Relative to this file (file snapshots resolve from here). */
const folder = '../../../public/connectors/';
// Only the names: the files are never loaded as modules.
const files = Object.keys(import.meta.glob('../../../public/connectors/*.svg')).map((path) =>
  path.slice(folder.length),
);

// The files are written from `connectorLogos` by `vitest run -u` (file snapshots) and checked against it otherwise,
// so a logo is changed here, not by editing the SVG. The server's connector test checks every factory's `logo` is
// one of these files.
describe('connector logo files (issue 26)', () => {
  it('are exactly one per entry: a brand mark or a deliberate generic icon', () => {
    expect(files.sort()).toEqual(Object.keys(connectorLogos).map((name) => `${name}.svg`));
  });

  for (const [name, source] of Object.entries(connectorLogos)) {
    it(`draws ${name}`, async () => {
      await expect(connectorLogoSvg(name, source)).toMatchFileSnapshot(`${folder}${name}.svg`);
    });
  }

  it('draws the mark in white, or in black on a tile too light for white', () => {
    expect(markColour('#181717')).toBe('#fff');
    expect(markColour('#4285f4')).toBe('#fff');
    expect(markColour('#ffe01b')).toBe('#000');
  });
});
