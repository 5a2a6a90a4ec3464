/** Every value of a stream that ends (an SDK's event stream), in order. */
export async function collectStream<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const values: T[] = [];
  for await (const value of stream) values.push(value);
  return values;
}
