// Triangle meshes of object types, read from STL, OBJ, glTF or GLB: vertex
// positions and three indices per triangle. Every reader throws only MeshError
// (the file's problem in words), never a silent empty shape.
import { MeshError, readStl } from '../urdf/mesh';
import { type BufferFiles, readGlb, readGltf } from './gltf';
import { MESH_OBJECT_MAX_VERTICES, type Triangles, weld } from './mesh-math';

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

/** An OBJ file's vertices and faces (polygons as fans; `a/b/c` takes the vertex; negative indices count back). */
export function readObjTriangles(text: string): Triangles {
  const positions: number[] = [];
  const indices: number[] = [];
  let line = 0;
  for (const raw of text.split('\n')) {
    line++;
    const words = raw.trim().split(/\s+/);
    if (words[0] === 'v') {
      if (words.length < 4) throw new MeshError(`line ${line}: a vertex needs x y z`);
      positions.push(Number(words[1]), Number(words[2]), Number(words[3]));
      if (positions.length > MESH_OBJECT_MAX_VERTICES * 12)
        throw new MeshError(`more than ${MESH_OBJECT_MAX_VERTICES * 4} vertices are not read`);
    } else if (words[0] === 'f') {
      if (words.length < 4) throw new MeshError(`line ${line}: a face needs three vertices`);
      const n = positions.length / 3;
      const face = words.slice(1).map((w) => {
        const i = Number(w.split('/')[0]);
        if (!Number.isInteger(i) || i === 0 || (i > 0 ? i > n : -i > n))
          throw new MeshError(`line ${line}: face vertex "${w}" is not one of the ${n} vertices before it`);
        return i > 0 ? i - 1 : n + i;
      });
      for (let k = 1; k + 1 < face.length; k++) indices.push(face[0]!, face[k]!, face[k + 1]!);
    }
  }
  return { positions, indices };
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
