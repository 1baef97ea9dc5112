/**
 * CloudFront Function (viewer request, the site's behaviors: the default and the share page): a path whose last segment has no
 * file extension is a route of the React app, so it is served index.html. Doing this here rather
 * than with distribution-wide 403/404 error pages keeps the API's own 403 and 404 answers intact.
 */
export const spaFallbackFunctionCode = `function handler(event) {
  var request = event.request;
  var lastSegment = request.uri.substring(request.uri.lastIndexOf('/') + 1);
  if (lastSegment.indexOf('.') === -1) {
    request.uri = '/index.html';
  }
  return request;
}`;
