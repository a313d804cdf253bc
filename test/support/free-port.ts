export { freePort } from '../../infra/ephemeral-infrastructure';
