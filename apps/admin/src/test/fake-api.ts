export { fail, fakeApi, ok, type ApiCall, type Reply } from '../../../../tests/support/fake-api.ts'
