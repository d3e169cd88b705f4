// The built-in scene, robot and catalogue files as their schemas parse them, as
// JSON text: the command-line bundle's build validates them all once and fills this
// in (scripts/build-cli.mjs), so a bundled command neither builds the zod schemas nor
// parses a built-in scene; the raw files are then left out of the bundle. In the
// sources it stays empty and every built-in file is validated when first used
// (scenes/registry.ts).
export interface Prevalidated {
  /** By file, as in registry.ts (`data/tabletop/fruits.json`). */
  scenes: Record<string, string>;
  /** The id each scene file declares, by file. */
  sceneIds: Record<string, string>;
  /** By file (`robots/tabletop-arm.json`). */
  robots: Record<string, string>;
  /** Catalogue entries by type name. */
  types: Record<string, string>;
}

export const PREVALIDATED: Prevalidated | undefined = undefined;
