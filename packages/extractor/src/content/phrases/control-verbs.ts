// Labels of a link that goes nowhere (`href="#"`, `javascript:`) drawn as a shop's or an app's button
// (`page-controls.ts`): the link leaves the main content when its text starts with one of these.
import { anyOf, phraseTable } from './phrase-table.js';

/**
 * The verbs a control's label starts with, at the start of the link's text and followed by a word boundary. Never a
 * question (a FAQ's accordion: "Can I return it?") nor a lone "Add" (a list's item): the rule that reads the table
 * refuses a `?` and needs the words after "add".
 */
const CONTROL_VERBS = phraseTable(String.raw`
  // a shop's lists: "Add to Wish List", "Add to Compare", "Remove", "Compare"
  add to
  remove
  compare
  // a dialog's, a panel's or a form's buttons: "Close", "Update cart", "Cancel", "Submit", "Apply", "Reset"
  close
  update
  cancel
  submit
  apply
  reset
  // an accordion's or a list's: "Expand all", "Collapse", "Toggle details", "Clear filters"
  expand
  collapse
  toggle
  clear
  // an account's: "Sign in to continue", "Sign up", "Log in", "Login"
  sign (?:in|up)
  log ?in
  // a review's or a product's: "Report an issue with this product", "Write a review", "Edit", "Delete"
  report
  write
  edit
  delete
  // a viewer's: "Click to see full view", "Tap to zoom"
  click
  tap
  // a page's tools: "Print", "Share", "Save"
  print
  share
  save
  // a list's more-or-less controls: "Show all", "View more", "Load more", "Read less", "See filters"
  (?:show|hide|view|see|load|read) (?:all|more|less|filters?)
  more reviews
`);

/** A control's label: one of the verbs first (after any symbols), then no question mark to the end. */
export const CONTROL_TEXT = anyOf(CONTROL_VERBS, String.raw`^\W*`, String.raw`\b[^?]*$`);
