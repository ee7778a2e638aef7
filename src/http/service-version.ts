/**
 * The service's version, as the MCP server names itself and as streamed answers' tags include it
 * (streamedEntityTag). A release that changes what an answer holds or how it is written raises it,
 * so that a client or cache revalidating a tag taken before gets the new body, not a 304.
 */
export const SERVICE_VERSION = '1.0.0';
