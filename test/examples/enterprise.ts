import { checkCompatibility, createSeqeraClient } from "seqera-api-client";

/** Connects to an Enterprise install served under a path prefix, with its own rate limit. */
export async function connectToEnterprise(baseUrl = "https://seqera.example.com/api") {
  const client = createSeqeraClient({
    baseUrl,
    // This install allows more than Seqera Cloud; `rateLimit: false` if it has no limit at all.
    rateLimit: { perSecond: 50, perHour: 500_000 },
  });
  // Warns when the server is older than the schema release this client was generated from.
  const report = await checkCompatibility(client);
  if (!report.compatible) console.warn(report.message);
  return report;
}
