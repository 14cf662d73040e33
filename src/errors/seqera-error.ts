/**
 * Base of every error the package throws for its own reasons: a call that failed or an answer
 * it cannot use (SeqeraApiError), a bad option or argument (ConfigurationError), a name that
 * matches nothing, a run that failed. `catch (e) { if (e instanceof SeqeraError) … }` tells them
 * from a bug or an error of the runtime.
 */
export class SeqeraError extends Error {}
// On the prototype, like the built-in errors, so it is not an own property of each instance.
SeqeraError.prototype.name = "SeqeraError";
