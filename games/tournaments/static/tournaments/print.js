// The crosstable's print view (?print=1): open the browser's print dialog once the page is
// drawn. A static file, as the site's Content-Security-Policy allows no inline script.
window.addEventListener("load", () => window.print());
