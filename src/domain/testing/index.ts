/** domain/testing: a complete sample alert message for the tests of every layer that handles one. */
export { sampleAlert } from './sample-alert.js';
