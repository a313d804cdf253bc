// Rasterizes the graph picture (domain/intelligence/graph-picture.ts) to PNG with sharp.
import sharp from 'sharp';
import { graphSvg, type PictureEdge, type PictureNode } from '../../domain/intelligence/graph-picture';

export async function renderGraphPng(nodes: readonly PictureNode[], edges: readonly PictureEdge[], size: { width: number; height: number }): Promise<Buffer> {
  return sharp(Buffer.from(graphSvg(nodes, edges, size), 'utf8')).png({ compressionLevel: 6 }).toBuffer();
}
