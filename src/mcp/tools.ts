import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { SCHEMAS, timelineParamsSchema } from '../validation/schemas.ts';
import { EXTRA_FIELDS } from './compact.ts';

type JsonObject = Record<string, unknown>;

/**
 * A schema as MCP tools carry it: a plain object schema without $schema, $id, title and the
 * examples meant for /openapi.json, which would only take room in an agent's context.
 */
function toolSchema(schema: object): Tool['inputSchema'] {
  const { $schema: _schema, $id: _id, title: _title, description: _description, ...rest } = structuredClone(schema) as JsonObject;
  for (const property of Object.values((rest.properties ?? {}) as Record<string, JsonObject>)) delete property.examples;
  return rest as Tool['inputSchema'];
}

/** The argument that adds fields to the compact records of a list tool. Tool arguments only: HTTP answers whole records. */
export const FIELDS_ARGUMENT = {
  type: 'array',
  items: { enum: [...EXTRA_FIELDS, 'all'] },
  description: 'Extra fields; notes: whole notes, all: every field.',
} as const;

/** What search_specimens says of `source`, whose values its schema lists (labels: archive://catalog). */
export const SOURCE_DESCRIPTION = 'Source sites.';

/** What get_timeline says of `source`: the keys are listed once, in search_specimens, where they are most used. */
export const TIMELINE_SOURCE_DESCRIPTION = 'Source sites: the keys of search_specimens.';

/**
 * The list tools' parameters: the HTTP list parameters and `fields`, with `source` as given: the
 * keys of the archive's source table as they are now, or a pointer to the tool that lists them. A
 * call with a key not in the table is refused naming the keys either way.
 */
function listInputSchema(schema: object, source: { items: JsonObject; description: string }): Tool['inputSchema'] {
  const input = toolSchema(schema);
  const properties = (input.properties ?? {}) as Record<string, JsonObject>;
  return { ...input, properties: { ...properties, source: { ...properties.source, ...source }, fields: FIELDS_ARGUMENT } };
}

/** What get_timeline says of `sourceUrl`: described once, in search_specimens. */
export const TIMELINE_SOURCE_URL_DESCRIPTION = 'As search_specimens.';

/** get_timeline's parameters: the timeline's, with sourceUrl pointing to search_specimens's description. */
function timelineInputSchema(): object {
  const schema = timelineParamsSchema();
  const properties = schema.properties ?? {};
  return { ...schema, properties: { ...properties, sourceUrl: { ...properties.sourceUrl, description: TIMELINE_SOURCE_URL_DESCRIPTION } } };
}

/** What a list tool returns; items are compact records, see compact.ts. */
const LIST_OUTPUT: Tool['outputSchema'] = { type: 'object', required: ['total', 'offset', 'limit', 'items', 'next'] };

/** destructiveHint and idempotentHint mean something only for tools that write (MCP spec), so they are left out. */
const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

export const TOOL_NAMES = ['search_specimens', 'get_specimen', 'get_timeline'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/** The three read-only tools, their schemas taken from schemas/ (the same that validate HTTP); `sourceKeys` from the source table. */
export function toolDefinitions(sourceKeys: readonly string[]): Tool[] {
  return [
    {
      name: 'search_specimens',
      title: 'Search archive records',
      description:
        'Search the archive of works made by AI models, as GET /api/v1/specimens: compact records (more with fields), exact total, facets if asked, next (the cursor of the next page).',
      inputSchema: listInputSchema(SCHEMAS.searchParams, { items: { enum: [...sourceKeys] }, description: SOURCE_DESCRIPTION }),
      outputSchema: LIST_OUTPUT,
      annotations: READ_ONLY,
    },
    {
      name: 'get_specimen',
      title: 'Get one archive record',
      description: 'One whole record by id, with its citation, as GET /api/v1/specimens/{id}.',
      inputSchema: toolSchema(SCHEMAS.recordParams),
      outputSchema: { type: 'object', required: ['id', 'title', 'citation'] },
      annotations: READ_ONLY,
    },
    {
      name: 'get_timeline',
      title: 'Read the model timeline',
      description: 'Milestones of model history, oldest first, as GET /api/v1/timeline; as search_specimens otherwise.',
      // Its source keys are search_specimens's: listed twice, they took about 5 tokens of the budget a source.
      inputSchema: listInputSchema(timelineInputSchema(), { items: { type: 'string' }, description: TIMELINE_SOURCE_DESCRIPTION }),
      outputSchema: LIST_OUTPUT,
      annotations: READ_ONLY,
    },
  ];
}
