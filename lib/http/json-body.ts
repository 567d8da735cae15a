/**
 * The JSON body of an answer of the portal's own API, or null when the body is not JSON (an error
 * page of a proxy or of the platform in front of the portal: HTML, or nothing). Any other failure
 * (the connection broke, the request was aborted while the body was read) is thrown, as fetch's own.
 */
export async function jsonBodyOrNull<T>(response: Response): Promise<T | null> {
  try {
    return (await response.json()) as T;
  } catch (error) {
    if (error instanceof SyntaxError) return null;
    throw error;
  }
}
