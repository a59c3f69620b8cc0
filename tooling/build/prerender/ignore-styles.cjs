// Prerendering runs a screen's source in Node: its CSS imports only matter to webpack (the CSS is
// published as the screen's stylesheet, linked by the fragment).
require.extensions['.css'] = (module) => {
  module.exports = {};
};
