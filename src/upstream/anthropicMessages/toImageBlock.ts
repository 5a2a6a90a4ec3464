/** `data:image/png;base64,iVBOR...`: group 1 the media type, group 2 the data. */
const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/** A chat `image_url` as a Messages `image` block: a base64 data URL as its data, any other URL by reference. */
export function toImageBlock(url: string): Record<string, unknown> {
  const data = DATA_URL.exec(url);
  return data
    ? { type: 'image', source: { type: 'base64', media_type: data[1], data: data[2] } }
    : { type: 'image', source: { type: 'url', url } };
}
