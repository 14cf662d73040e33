import { BadRequestError, ForbiddenError, createSeqeraClient } from "seqera-api-client";

/** Lists runs, turning the service's errors into messages an operator can act on. */
export async function listRunsOrExplain(max: number): Promise<string> {
  const client = createSeqeraClient();
  try {
    const { workflows } = await client.GET("/workflow", {
      params: { query: { max } },
    });
    return `${workflows?.length ?? 0} runs`;
  } catch (error) {
    if (error instanceof BadRequestError) {
      // The message comes without its " - Error ID: …" suffix; quote the id to Seqera support.
      return `rejected: ${error.message} (Error ID ${error.errorId ?? "none"})`;
    }
    if (error instanceof ForbiddenError) {
      // 403 means a bad or expired token, or a path this server does not serve.
      return `forbidden: ${error.message}`;
    }
    throw error;
  }
}
