/** Every item of an async iterable (a page list, a log followed), in order. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** The error a call rejects with; a call that resolves fails the test. */
export async function failure<E = Error>(call: Promise<unknown>): Promise<E> {
  return call.then(
    () => {
      throw new Error("expected the call to fail, and it succeeded");
    },
    (error: unknown) => error as E,
  );
}
