import { Module } from '@nestjs/common';
import { BusServer } from './bus-server.js';
import { SignupsModule } from './signups/signups.module.js';

@Module({
  imports: [SignupsModule],
  providers: [BusServer],
})
export class SignupsServiceModule {}
