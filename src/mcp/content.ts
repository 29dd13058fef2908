/**
 * A tool's output in MCP's shapes: text and image parts as they are, a PDF document as an
 * embedded resource (MCP has no document part), and `isError` passed through, so a model sees a
 * recoverable failure as a result it can act on, never as a protocol error.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ContentPart, ToolDefinition, ToolOutput } from '../dialects/tool.js';

type McpContent = CallToolResult['content'][number];

function mcpPart(part: ContentPart): McpContent {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image', data: part.data, mimeType: part.mimeType };
    case 'document':
      return { type: 'resource', resource: { uri: 'readpool://document.pdf', mimeType: part.mimeType, blob: part.data } };
    case 'audio':
      return { type: 'audio', data: part.data, mimeType: part.mimeType };
    case 'resource':
      return { type: 'resource', resource: { uri: part.uri, mimeType: part.mimeType, blob: part.data } };
  }
}

export function callResultOf(output: ToolOutput, tool: ToolDefinition): CallToolResult {
  const result: CallToolResult = { content: output.content.map(mcpPart), isError: output.isError };
  // Structured content only where the tool declares its shape: hosts that show both would
  // otherwise pay for every answer twice.
  if (tool.outputSchema !== undefined && isRecord(output.data)) result.structuredContent = output.data;
  return result;
}

/** The tool as `tools/list` announces it. */
export function toolOf(tool: ToolDefinition): Tool {
  const listed: Tool = {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    annotations: { ...tool.annotations },
  };
  if (tool.outputSchema !== undefined) listed.outputSchema = tool.outputSchema as NonNullable<Tool['outputSchema']>;
  return listed;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
