// Short blocks whose whole text is a call to action or a label of page furniture (`furniture.ts`).
import { anyOf, phraseTable } from './phrase-table.js';

/**
 * The whole text of a short block (40 characters at most) that is page furniture, not the text: a label, a button's
 * wording, a counter. Matched against the block's whole text, a final `.`, `!` or `:` allowed.
 */
const FURNITURE_TEXTS = phraseTable(String.raw`
  // labels of a news page and of its loading or ad slots
  breaking(?: news)?
  developing(?: story)?
  live(?: updates)?
  listen to (?:this )?(?:article|story)
  \d+ min(?:ute)?s?\.? read
  read(?:ing)? time:? \d+ min(?:ute)?s?
  loading(?:(?: [\w-]+){1,4}(?:\.\.\.|…)|(?:\.\.\.|…))?
  (?:article|story) continues (?:below|after (?:the )?(?:ad|advertisement))
  scroll to continue(?: with content)?
  continue reading below
  press enter or click to view image in full size
  advertisements?
  sponsored
  [•·|-]? ?sponsored ?[•·|-]?

  // moving about the page
  skip to (?:main |primary )?(?:content|navigation|product information)
  back to (?:top|blog|news|articles?)
  jump to (?:the )?(?:list|recipe)
  (?:read|learn|load|show|see|view) (?:more|all|less)
  continue reading
  hide (?:all|details)
  show details
  expand description
  click to (?:expand|shrink)\.*
  opens? in a new (?:window|tab)
  open in app

  // sharing, following, printing
  share(?: this)?(?: (?:article|post|story|page))?:?
  share on \w+
  print
  print this (?:page|article)
  email
  tweet
  pin it
  pin (?:this |it )?for later
  follow
  like
  save

  // accounts and sign-up
  (?:sign|log) ?(?:in|up|out)(?: (?:free|now|for free|today))?
  sign in now
  register
  subscribe(?: now)?
  thanks for signing up
  be the first to know

  // a service's calls to action
  get (?:started|in touch|a (?:quote|demo))(?: (?:today|now|for free|free))?
  contact (?:us|sales)(?: today)?
  (?:book|schedule|request|get|watch) (?:a |your )?(?:free )?(?:demo|call|consultation|quote)(?: today)?
  book now
  start (?:your )?(?:free )?trial
  start (?:a )?(?:free )?trial
  try (?:it )?(?:for )?free
  talk to (?:our |an )?(?:experts?|sales)
  see (?:all )?(?:plans|pricing|case studies|details)
  donate(?: today| now)?!?
  submit (?:a )?correction

  // a shop's buttons, stock notes, ratings, sorting and paging
  add to (?:cart|bag|basket|wishlist|list|favorites)
  buy (?:it )?now
  shop (?:now|all)
  (?:in|out of) stock
  select (?:a )?(?:size|color|colour)
  write a review
  free shipping.*
  notify me.*
  verified (?:buyer|purchase)
  rated \d(?:\.\d)? out of 5(?: stars)?
  was this (?:review |article )?helpful\??
  quick (?:shop|view|add)
  (?:add to )?compare
  calculate shipping
  top rated
  best ?sell(?:er|ing)
  new arrivals?
  back-?order
  pick ?up in store
  sort (?:and|&) filter
  sort by:?
  filters?
  filters? (?:&|and) sort
  (?:sort|view) options
  showing \d+(?:\s*[-–]\s*\d+)? of [\d,]+(?: results| products| items)?
  [\d,]+ (?:results|products|items)
  page \d+ of \d+
  check (?:the )?price (?:at|on) [\w.]+(?: on sale)?
  (?:see|view|compare) (?:the )?(?:price|prices|deals?|offers?)(?: (?:at|on) [\w.]+(?: site)?)?
  (?:read|see) (?:the |our )?(?:full )?(?:review|rating)

  // a thread's and a Q&A page's buttons, badges and counters
  reply
  reply with quote
  report
  report(?: inappropriate content| post| this)?
  improve this (?:question|answer)
  original poster
  author
  code: select all
  watch this (?:topic|thread)
  upvote
  downvote
  [\d,.]+k? (?:likes?|replies|views|posts|answers)
  (?:likes?|replies|views|posts):? [\d,.]+k?
  sorted by:?(?: reset to default)?
  start asking to get answers
  (?:explore|see) (?:related|similar) questions(?: with these tags)?

  // the site's legal links
  privacy policy
  terms (?:of (?:use|service)|(?:and|&) conditions)
  cookie (?:policy|settings|preferences)
`);

export const FURNITURE_TEXT = anyOf(FURNITURE_TEXTS, '^', '[.!:]?$');
