/**
 * `readpool/ai` inside the AI SDK's own tool loop: `generateText` with the SDK's mock language
 * model (a real model cannot run here) calls a readpool tool, and the next model call receives
 * the tool's answer as the model would: text as text, an image as image data, failures as errors.
 */
import fs from 'node:fs';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiTools } from '../src/ai.js';
import { createEngine, type Engine } from '../src/index.js';
import { makeDialectWorkspace, type DialectWorkspace } from './support/dialect-workspace.js';
import { removeTempDir } from './support/temp-dir.js';

let ws: DialectWorkspace;
let engine: Engine;

beforeAll(async () => {
  ws = await makeDialectWorkspace();
  engine = await createEngine({ root: ws.root, threads: 1 });
});

afterAll(async () => {
  await engine.close();
  removeTempDir(ws.base);
});

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A model that calls `toolName` with `input` once, then answers "done"; returns what it was sent. */
async function runToolCall(toolName: string, input: unknown, tools: ReturnType<typeof aiTools>): Promise<unknown> {
  const model = new MockLanguageModelV4({
    doGenerate: [
      {
        content: [{ type: 'tool-call', toolCallId: 'call-1', toolName, input: JSON.stringify(input) }],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      },
      { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
    ],
  });
  const result = await generateText({ model, tools, prompt: 'read it', stopWhen: stepCountIs(3) });
  expect(result.text).toBe('done');
  const second = model.doGenerateCalls[1];
  if (second === undefined) throw new Error('the model was called once');
  const toolMessage = second.prompt.find((message) => message.role === 'tool');
  const [part] = toolMessage?.content ?? [];
  if (part?.type !== 'tool-result') throw new Error(`no tool result in ${JSON.stringify(second.prompt)}`);
  return part.output;
}

describe('readpool/ai', () => {
  it('gives the AI SDK the dialect tools by name, with their JSON Schemas', () => {
    const tools = aiTools(engine, 'readpool');
    expect(Object.keys(tools)).toEqual(['read']);
  });

  it('returns text to the model as text, through a real tool loop', async () => {
    expect(await runToolCall('read', { path: 'normal.txt' }, aiTools(engine, 'readpool'))).toEqual({
      type: 'content',
      value: [{ type: 'text', text: '1\talpha\n2\tbeta\n3\tgamma' }],
    });
  });

  it('returns an image to the model as image data, not base64 inside JSON', async () => {
    const output = (await runToolCall('read', { path: 'image.png' }, aiTools(engine, 'readpool'))) as { type: string; value: unknown[] };
    expect(output.type).toBe('content');
    // The provider receives it as a file part of an image type: what providers send as an image.
    expect(output.value[1]).toMatchObject({
      type: 'file',
      mediaType: 'image/png',
      data: { type: 'data', data: fs.readFileSync(ws.files.image).toString('base64') },
    });
  });

  it('returns a failure to the model as error text it can act on', async () => {
    expect(await runToolCall('read', { path: 'dir' }, aiTools(engine, 'readpool'))).toEqual({
      type: 'error-text',
      value: '"dir" is a directory, not a file. List its entries with a directory tool, then call read on a file inside it.',
    });
  });

  it('keeps a session across calls: the second read of the same file is the unchanged stub', async () => {
    const tools = aiTools(engine, 'readpool', { session: 'ai-1' });
    await runToolCall('read', { path: 'normal.txt' }, tools);
    const again = (await runToolCall('read', { path: 'normal.txt' }, tools)) as { value: { text: string }[] };
    expect(again.value[0]?.text).toMatch(/^\[normal\.txt is unchanged since you read all 3 lines at /);
  });
});
