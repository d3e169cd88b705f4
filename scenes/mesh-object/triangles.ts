// Triangle meshes of object types, read from STL, OBJ, glTF or GLB: vertex
// positions and three indices per triangle. Every reader throws only MeshError
// (the file's problem in words), never a silent empty shape.
import { MeshError, readObj, readStl } from '../urdf/mesh';
import { type BufferFiles, readGlb, readGltf } from './gltf';
import { type Triangles, weld } from './mesh-math';

export type { Triangles } from './mesh-math';

export type MeshObjectFormat = 'stl' | 'obj' | 'glb' | 'gltf';

/** The format a mesh file's name says, or undefined. */
export function meshObjectFormat(file: string): MeshObjectFormat | undefined {
  const ext = /\.([A-Za-z0-9]+)$/.exec(file)?.[1]?.toLowerCase();
  return ext === 'stl' || ext === 'obj' || ext === 'glb' || ext === 'gltf' ? ext : undefined;
}

function stlTriangles(bytes: Uint8Array): Triangles {
  const m = readStl(bytes);
  const positions = Array.from(m.positions);
  return weld({ positions, indices: positions.slice(0, positions.length / 3).map((_, i) => i) });
}

/** An OBJ file's vertices and faces (the robot descriptions' reader: polygons as fans, `a/b/c` takes the vertex, negative indices count back). */
export function readObjTriangles(text: string): Triangles {
  const m = readObj(text);
  return { positions: Array.from(m.positions), indices: Array.from(m.indices) };
}

/** The triangles in `bytes`, read as the file name's extension says. */
export function readTriangles(file: string, bytes: Uint8Array, files?: BufferFiles): Triangles {
  const f = meshObjectFormat(file);
  switch (f) {
    case 'stl':
      return stlTriangles(bytes);
    case 'obj':
      return readObjTriangles(new TextDecoder().decode(bytes));
    case 'glb':
      return readGlb(bytes);
    case 'gltf':
      return readGltf(bytes, files);
    case undefined:
      throw new MeshError('not a mesh format this reads: give a .glb, .gltf, .stl or .obj file');
  }
}
