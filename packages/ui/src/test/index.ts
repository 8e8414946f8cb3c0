export { fakeFetch } from './fake-fetch';
